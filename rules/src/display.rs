//! The human board shared by every game: South at the bottom, each row's hole
//! numbers printed on its outer side (above North's rows, below South's).

use std::fmt::Write;

/// One row of holes as seen from South's seat, left to right.
pub struct Row {
    pub label: &'static str,
    /// Hole numbers, left to right as South sees them.
    pub holes: Vec<usize>,
}

/// Renders `rows` (top to bottom; the first `north_rows` belong to North) with
/// `cell(hole)` as each hole's content, between a header and footer line.
pub fn render_board(
    header: &str,
    rows: &[Row],
    north_rows: usize,
    cell: impl Fn(usize) -> String,
    north_note: &str,
    south_note: &str,
) -> String {
    let width = rows
        .iter()
        .flat_map(|r| {
            r.holes
                .iter()
                .map(|&h| (h.to_string().len() + 1).max(cell(h).len()))
        })
        .max()
        .unwrap_or(1)
        + 2;
    let line = |values: Vec<String>, label: &str| {
        let mut s = String::new();
        for v in values {
            let _ = write!(s, "{v:>width$}");
        }
        if !label.is_empty() {
            let _ = write!(s, "   {label}");
        }
        s.trim_end().to_string()
    };
    let numbers = |r: &Row| line(r.holes.iter().map(|h| format!("#{h}")).collect(), "");
    let seeds = |r: &Row| line(r.holes.iter().map(|&h| cell(h)).collect(), r.label);
    let mut out = String::new();
    let _ = writeln!(out, "{header}");
    if !north_note.is_empty() {
        let _ = writeln!(out, "North: {north_note}");
    }
    for (i, row) in rows.iter().enumerate() {
        if i == north_rows {
            let _ = writeln!(out, "{}", "-".repeat(width * row.holes.len()));
        }
        if i < north_rows {
            let _ = writeln!(out, "{}", numbers(row));
            let _ = writeln!(out, "{}", seeds(row));
        } else {
            let _ = writeln!(out, "{}", seeds(row));
            let _ = writeln!(out, "{}", numbers(row));
        }
    }
    if !south_note.is_empty() {
        let _ = writeln!(out, "South: {south_note}");
    }
    out
}

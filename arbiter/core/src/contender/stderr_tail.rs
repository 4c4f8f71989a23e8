//! The last lines an engine wrote to its stderr log, for the reports that
//! explain why it failed (`arbiter check`, an engine that does not start in
//! `match` or `tournament`).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Lines of the engine's stderr a report shows.
pub const TAIL_LINES: usize = 20;
/// Bytes read from the end of the stderr file for them.
const TAIL_BYTES: u64 = 16 * 1024;

/// The last `n` lines of the file at `path` (empty when it is missing, empty
/// or unreadable: a report without them is still a report).
pub fn last_lines(path: &Path, n: usize) -> Vec<String> {
    let Ok(mut file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let from = len.saturating_sub(TAIL_BYTES);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(from)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| (*l).to_owned())
        .collect()
}

/// The lines of a report: a header, then each line prefixed `stderr| `
/// (nothing when the engine wrote none).
pub fn report_lines(lines: &[String]) -> Vec<String> {
    if lines.is_empty() {
        return Vec::new();
    }
    let mut out = vec![format!(
        "engine stderr (last {} of its lines):",
        lines.len()
    )];
    out.extend(lines.iter().map(|l| format!("stderr| {l}")));
    out
}

/// Where an engine's stderr went and, when it wrote any, its last lines:
/// the text added to the message of an engine that failed to start.
pub fn explain(path: Option<&Path>) -> String {
    let Some(path) = path else {
        return "its stderr was discarded (keep it with --stderr-dir DIR or stderr=FILE)".into();
    };
    let lines = last_lines(path, TAIL_LINES);
    if lines.is_empty() {
        return format!("it wrote nothing to stderr ({})", path.display());
    }
    let mut text = format!("its stderr is in {}; ", path.display());
    text.push_str(&report_lines(&lines).join("\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_of_a_file_and_their_report() {
        let dir = crate::test_dir("stderr-tail");
        let path = dir.join("e.stderr.log");
        let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&path, text).unwrap();
        let tail = last_lines(&path, 3);
        assert_eq!(tail, ["line 28", "line 29", "line 30"]);
        let explained = explain(Some(&path));
        assert!(
            explained.contains(&path.display().to_string()),
            "{explained}"
        );
        assert!(explained.ends_with("stderr| line 30"), "{explained}");
        assert!(explained.contains("stderr| line 11\n"), "{explained}");
        assert!(!explained.contains("stderr| line 10\n"), "{explained}");
        assert!(explain(Some(&dir.join("none"))).contains("wrote nothing"));
        assert!(explain(None).contains("--stderr-dir"));
        assert!(report_lines(&[]).is_empty());
    }
}

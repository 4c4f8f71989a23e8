//! Shared Python strings for the moves of games with few moves (every game
//! but Kujifunza, whose moves carry capture choices): `legal_moves()` then
//! hands out references to interned strings instead of allocating new
//! ones, which is most of its cost from Python.

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::Game;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};

type Table = Vec<Option<Py<PyString>>>;

/// A game's moves as Python strings.
pub trait MoveNames: Game {
    /// A dense index of `mv` into [`MoveNames::table`], if the game has one.
    fn slot(mv: Self::Move) -> Option<usize>;
    /// The interned names, by slot.
    fn table(py: Python<'_>) -> &'static Table;
    /// Runs `f` on this thread's reusable move buffer (a fresh one if it is
    /// already in use: Python code can run re-entrantly during `f`).
    fn with_buffer<R>(f: impl FnOnce(&mut Vec<Self::Move>) -> R) -> R;
}

macro_rules! buffer {
    ($ty:ty) => {
        fn with_buffer<R>(f: impl FnOnce(&mut Vec<Self::Move>) -> R) -> R {
            thread_local! {
                static BUFFER: std::cell::RefCell<Vec<<$ty as Game>::Move>> =
                    const { std::cell::RefCell::new(Vec::new()) };
            }
            BUFFER.with(|cell| match cell.try_borrow_mut() {
                Ok(mut buf) => {
                    buf.clear();
                    f(&mut buf)
                }
                Err(_) => f(&mut Vec::new()),
            })
        }
    };
}

/// Slot `i` holds the move spelled `i` (0: `pass`), when that spelling is a
/// move whose slot is `i`; checked here, so a wrong guess only costs speed.
fn build<G: MoveNames>(py: Python<'_>, slots: usize) -> Table {
    (0..slots)
        .map(|i| {
            let text = if i == 0 {
                "pass".to_string()
            } else {
                i.to_string()
            };
            let mv = text.parse::<G::Move>().ok()?;
            (G::slot(mv) == Some(i) && mv.to_string() == text)
                .then(|| PyString::intern(py, &text).unbind())
        })
        .collect()
}

macro_rules! hole_names {
    ($ty:ty, $slots:expr, $mv:ident => $slot:expr) => {
        impl MoveNames for $ty {
            fn slot($mv: Self::Move) -> Option<usize> {
                $slot
            }
            fn table(py: Python<'_>) -> &'static Table {
                static TABLE: PyOnceLock<Table> = PyOnceLock::new();
                TABLE.get_or_init(py, || build::<Self>(py, $slots))
            }
            buffer!($ty);
        }
    };
}

hole_names!(Bohnenspiel, 13, mv => Some(usize::from(mv.hole().unwrap_or(0))));
hole_names!(Hemprich, 13, mv => Some(usize::from(mv.hole().unwrap_or(0))));
hole_names!(Bosh, 11, mv => Some(usize::from(mv.hole())));
hole_names!(Kimasai, 49, mv => Some(usize::from(mv.hole())));
hole_names!(Kalah, 13, mv => Some(usize::from(mv.hole())));
hole_names!(Kalah6, 13, mv => Some(usize::from(mv.hole())));
hole_names!(Oware, 13, mv => Some(usize::from(mv.hole())));

impl MoveNames for Kujifunza {
    fn slot(_: Self::Move) -> Option<usize> {
        None
    }
    fn table(_: Python<'_>) -> &'static Table {
        static EMPTY: Table = Vec::new();
        &EMPTY
    }
    buffer!(Kujifunza);
}

/// The legal moves of `p` as a Python list of strings.
pub fn legal_list<'py, G: MoveNames>(py: Python<'py>, p: &G) -> PyResult<Bound<'py, PyList>> {
    G::with_buffer(|moves| {
        p.legal_moves(moves);
        move_list::<G>(py, moves)
    })
}

/// Moves as a Python list of strings.
pub fn move_list<'py, G: MoveNames>(
    py: Python<'py>,
    moves: &[G::Move],
) -> PyResult<Bound<'py, PyList>> {
    let table = G::table(py);
    PyList::new(
        py,
        moves.iter().map(|&mv| {
            match G::slot(mv)
                .and_then(|i| table.get(i))
                .and_then(Option::as_ref)
            {
                Some(name) => name.clone_ref(py).into_bound(py),
                None => PyString::new(py, &mv.to_string()),
            }
        }),
    )
}

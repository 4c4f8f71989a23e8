//! The combinatorial number system over the 12 pits: a board of `n` beans is
//! a composition of `n` into 12 parts, read as 11 bars among `n + 11` slots
//! ("stars and bars"); its index is the colex rank of the bar positions,
//! `Σ_j C(b_j, j + 1)`. The rank does not depend on `n`, and the boards of
//! layer `n` take exactly the indices `0 .. C(n + 11, 11)`.

use mancala_rules::games::bohnenspiel::PITS;

/// A board seen from the player to move: his six pits first (indices 0..6),
/// then the opponent's six, in sowing order.
pub type Board = [u8; PITS];

/// Bars between the 12 pits.
const BARS: usize = PITS - 1;
/// Largest layer the table covers: every bean on the board.
pub const MAX_BEANS: usize = 72;
/// `BINOMIAL[m][k]` = C(m, k) for m ≤ MAX_BEANS + BARS, k ≤ BARS + 1.
static BINOMIAL: [[u64; BARS + 2]; MAX_BEANS + BARS + 1] = binomials();

const fn binomials() -> [[u64; BARS + 2]; MAX_BEANS + BARS + 1] {
    let mut t = [[0u64; BARS + 2]; MAX_BEANS + BARS + 1];
    let mut m = 0;
    while m <= MAX_BEANS + BARS {
        t[m][0] = 1;
        let mut k = 1;
        while k <= BARS + 1 {
            t[m][k] = if m == 0 {
                0
            } else {
                t[m - 1][k - 1] + t[m - 1][k]
            };
            k += 1;
        }
        m += 1;
    }
    t
}

/// C(m, k) for the ranges the index uses.
fn binomial(m: usize, k: usize) -> u64 {
    BINOMIAL[m][k]
}

/// Boards in layer `n`: C(n + 11, 11). `n` is at most [`MAX_BEANS`].
pub fn layer_size(n: usize) -> u64 {
    binomial(n + BARS, BARS)
}

/// The beans on a board.
pub fn beans(board: &Board) -> usize {
    board.iter().map(|&b| usize::from(b)).sum()
}

/// The index of `board` within its layer (`beans(board)`).
#[inline]
pub fn rank(board: &Board) -> u64 {
    let mut sum = 0usize;
    let mut r = 0u64;
    for (j, &beans) in board[..BARS].iter().enumerate() {
        sum += usize::from(beans);
        // Bar j sits after the first j+1 pits and the j bars before it.
        r += BINOMIAL[sum + j][j + 1];
    }
    r
}

/// The board of layer `n` with index `r`; `None` when `r` is out of range.
pub fn unrank(n: usize, mut r: u64) -> Option<Board> {
    if n > MAX_BEANS || r >= layer_size(n) {
        return None;
    }
    let mut bars = [0usize; BARS];
    // Greedy from the highest bar: the largest b with C(b, j+1) ≤ r.
    let mut top = n + BARS; // bar j lies below the bar above it
    for j in (0..BARS).rev() {
        let mut b = top - 1;
        while binomial(b, j + 1) > r {
            b -= 1;
        }
        r -= binomial(b, j + 1);
        bars[j] = b;
        top = b;
    }
    Some(board_of_bars(n, &bars))
}

fn board_of_bars(n: usize, bars: &[usize; BARS]) -> Board {
    let mut board = [0u8; PITS];
    let mut prev: isize = -1;
    for (j, &b) in bars.iter().enumerate() {
        board[j] = (b as isize - prev - 1) as u8;
        prev = b as isize;
    }
    board[BARS] = (n as isize + BARS as isize - prev - 1) as u8;
    board
}

/// The boards of layer `n` from index `start` on, in index order (each step
/// is the colex successor of the bars, cheaper than [`unrank`]).
pub struct Boards {
    n: usize,
    bars: [usize; BARS],
    left: u64,
}

impl Boards {
    pub fn new(n: usize, start: u64, end: u64) -> Boards {
        let end = end.min(layer_size(n));
        let bars = match unrank(n, start) {
            Some(board) => bars_of_board(&board),
            None => [0; BARS],
        };
        Boards {
            n,
            bars,
            left: end.saturating_sub(start),
        }
    }
}

fn bars_of_board(board: &Board) -> [usize; BARS] {
    let mut bars = [0; BARS];
    let mut sum = 0;
    for j in 0..BARS {
        sum += usize::from(board[j]);
        bars[j] = sum + j;
    }
    bars
}

impl Iterator for Boards {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let board = board_of_bars(self.n, &self.bars);
        if self.left > 0 {
            // Colex successor: raise the lowest bar that can move up, put
            // the bars below it back at the bottom.
            let limit = self.n + BARS;
            let mut j = 0;
            while j < BARS {
                let next = if j + 1 < BARS {
                    self.bars[j + 1]
                } else {
                    limit
                };
                if self.bars[j] + 1 < next {
                    break;
                }
                j += 1;
            }
            self.bars[j] += 1;
            for (i, bar) in self.bars[..j].iter_mut().enumerate() {
                *bar = i;
            }
        }
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_are_the_stars_and_bars_counts() {
        assert_eq!(layer_size(0), 1);
        assert_eq!(layer_size(1), 12);
        assert_eq!(layer_size(2), 78);
        // C(31, 11) and C(35, 11).
        assert_eq!(layer_size(20), 84_672_315);
        assert_eq!(layer_size(24), 417_225_900);
    }

    #[test]
    fn every_index_of_the_small_layers_round_trips() {
        for n in 0..=7 {
            let mut count = 0u64;
            for (r, board) in Boards::new(n, 0, u64::MAX).enumerate() {
                assert_eq!(beans(&board), n);
                assert_eq!(rank(&board), r as u64, "layer {n} board {board:?}");
                assert_eq!(unrank(n, r as u64), Some(board));
                count += 1;
            }
            assert_eq!(count, layer_size(n));
            assert_eq!(unrank(n, layer_size(n)), None);
        }
    }

    #[test]
    fn the_ends_of_every_layer_round_trip() {
        for n in 0..=MAX_BEANS {
            let size = layer_size(n);
            let step = size / 97 + 1;
            let spread = (0..size).step_by(step as usize);
            for r in [1, size.saturating_sub(2), size - 1]
                .into_iter()
                .chain(spread)
            {
                let Some(board) = unrank(n, r) else {
                    assert!(size < 2);
                    continue;
                };
                assert_eq!(beans(&board), n);
                assert_eq!(rank(&board), r);
                let mut from = Boards::new(n, r, size);
                assert_eq!(from.next(), Some(board));
                if r + 1 < size {
                    assert_eq!(from.next().map(|b| rank(&b)), Some(r + 1));
                }
            }
        }
    }
}

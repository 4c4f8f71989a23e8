//! The solver's transposition table: exact bounds on the value of a Kalah
//! board (the mover's net future gain), shared by the search threads
//! without locks.
//!
//! A board is its 12 holes seen from the mover (the stores do not change
//! its value), packed 5 bits a hole into the 60-bit key ([`key`]), so the
//! key *is* the board: a hit is never another board's, whatever the table
//! size. Boards with a hole above 31 seeds are not stored.
//!
//! Buckets of four 16-byte entries (one cache line). Each entry is two
//! words, `key ^ data` and `data`, so that a torn write by two threads reads
//! back as a miss, never as a wrong entry (the usual lockless scheme). The
//! entry replaced in a full bucket is the one whose subtree cost the least
//! work ([`work`]).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::kalah::board::{cell, Word};

/// Bytes of a bucket: four entries of two words.
const BUCKET: usize = 64;
const WAYS: usize = 4;

/// A board's key: its 12 holes, 5 bits each, plus 1 so that no key is 0
/// (an empty entry); `None` when a hole holds more than 31 seeds.
#[inline(always)]
pub fn key(w: Word) -> Option<u64> {
    let mut k = 0u64;
    let mut big = 0u8;
    for (i, c) in [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
        .into_iter()
        .enumerate()
    {
        let h = cell(w, c);
        big |= h;
        k |= u64::from(h & 31) << (5 * i);
    }
    (big < 32).then_some(k + 1)
}

/// What the table knows about a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub lower: i32,
    pub upper: i32,
    /// The mover's hole (0–5) of the best move found, if any.
    pub best: Option<usize>,
    work: u8,
}

/// A subtree's cost for the replacement rule: log2 of its nodes, 0..=63.
pub fn work(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

fn encode(lower: i32, upper: i32, best: Option<usize>, work: u8) -> u64 {
    (lower as i8 as u8 as u64)
        | (upper as i8 as u8 as u64) << 8
        | (best.map_or(0xff, |b| b as u64)) << 16
        | u64::from(work) << 24
        | 1 << 32
}

fn decode(d: u64) -> Entry {
    let best = (d >> 16) as u8;
    Entry {
        lower: i32::from(d as u8 as i8),
        upper: i32::from((d >> 8) as u8 as i8),
        best: (best != 0xff).then_some(usize::from(best)),
        work: (d >> 24) as u8,
    }
}

/// The table's words: zeroed memory straight from the system (`mmap`),
/// advised to huge pages before anything touches it. why not a `Vec`: a
/// large allocation aligned for huge pages is zeroed by writing it, which
/// backs it with small pages at once (and costs the writes).
struct Words {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
}

// SAFETY: the words are atomics, owned by the table alone.
unsafe impl Send for Words {}
unsafe impl Sync for Words {}

impl Words {
    #[cfg(target_os = "linux")]
    fn zeroed(len: usize) -> Option<Words> {
        let bytes = len.checked_mul(8)?;
        // SAFETY: a fresh anonymous private mapping (zero-filled by the
        // system), checked for failure before use.
        unsafe {
            let ptr = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if ptr == libc::MAP_FAILED {
                return None;
            }
            // A probe is a random access: with 4 KiB pages nearly every one
            // also misses the TLB. A refusal only costs speed.
            libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE);
            Some(Words {
                ptr: std::ptr::NonNull::new(ptr.cast())?,
                len,
            })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn zeroed(len: usize) -> Option<Words> {
        let mut v: Vec<AtomicU64> = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.resize_with(len, || AtomicU64::new(0));
        let ptr = std::ptr::NonNull::new(Box::into_raw(v.into_boxed_slice()).cast())?;
        Some(Words { ptr, len })
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `len` initialised atomics owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        // SAFETY: the mapping (or box) made by `zeroed`, released once.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len * 8);
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            )));
        }
    }
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TtError {
    /// Below one megabyte.
    TooSmall,
    /// The system could not give the memory.
    Alloc { mb: u64 },
}

impl std::fmt::Display for TtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TtError::TooSmall => write!(f, "--hash 0 MB: the table needs at least 1 MB"),
            TtError::Alloc { mb } => write!(f, "--hash {mb} MB: the allocation failed"),
        }
    }
}

impl std::error::Error for TtError {}

pub struct Tt {
    words: Words,
    buckets: u64,
}

impl Tt {
    /// A table of `mb` megabytes (2^20 bytes). The caller checks the memory
    /// is there ([`super::solve`]); an allocation the system refuses is an
    /// error, not an abort.
    pub fn new(mb: u64) -> Result<Tt, TtError> {
        if mb == 0 {
            return Err(TtError::TooSmall);
        }
        let alloc = TtError::Alloc { mb };
        let bytes = mb.checked_mul(1 << 20).ok_or(alloc.clone())?;
        let buckets = bytes / BUCKET as u64;
        let len = usize::try_from(buckets * (BUCKET as u64 / 8)).map_err(|_| alloc.clone())?;
        let words = Words::zeroed(len).ok_or(alloc)?;
        Ok(Tt { words, buckets })
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = h ^ (h >> 29);
        ((u128::from(h) * u128::from(self.buckets)) >> 64) as usize * (BUCKET / 8)
    }

    /// Asks the cache for `key`'s bucket ahead of a probe: the children's
    /// buckets are fetched side by side while the node works on, not one
    /// miss after another.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; the pointer is in the table.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.words.as_ptr().add(at).cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..WAYS {
            let k = self.words[b + 2 * i].load(Ordering::Relaxed);
            let d = self.words[b + 2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return Some(decode(d));
            }
        }
        None
    }

    /// Stores bounds for `key`: over its own entry (the bounds met with the
    /// ones there, both being true), else over the entry of least work.
    #[inline]
    pub fn store(&self, key: u64, lower: i32, upper: i32, best: Option<usize>, work: u8) {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut least = u8::MAX;
        for i in 0..WAYS {
            let k = self.words[b + 2 * i].load(Ordering::Relaxed);
            let d = self.words[b + 2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                let old = decode(d);
                let (lo, up) = (lower.max(old.lower), upper.min(old.upper));
                // why: two true bounds cannot cross; if they seem to (a torn
                // read that checked out), trust the new ones alone.
                let (lo, up) = if lo <= up { (lo, up) } else { (lower, upper) };
                let best = best.or(old.best);
                let d = encode(lo, up, best, work.max(old.work));
                self.write(b + 2 * i, key, d);
                return;
            }
            let w = if d == 0 { 0 } else { decode(d).work };
            if w < least {
                least = w;
                victim = i;
            }
        }
        self.write(b + 2 * victim, key, encode(lower, upper, best, work));
    }

    #[inline(always)]
    fn write(&self, at: usize, key: u64, d: u64) {
        self.words[at].store(key ^ d, Ordering::Relaxed);
        self.words[at + 1].store(d, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::board::from_board;

    #[test]
    fn keys_are_the_boards() {
        let a = from_board(&[4; 12]).unwrap();
        let b = from_board(&[4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5]).unwrap();
        assert_ne!(key(a), key(b));
        assert_eq!(
            key(from_board(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32]).unwrap()),
            None
        );
        assert!(key(from_board(&[0; 12]).unwrap()).unwrap() > 0);
    }

    #[test]
    fn stores_meet_bounds_and_read_back() {
        let tt = Tt::new(1).unwrap();
        let k = key(from_board(&[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]).unwrap()).unwrap();
        assert_eq!(tt.probe(k), None);
        tt.store(k, -10, 20, Some(3), 5);
        tt.store(k, 4, 42, None, 2);
        let e = tt.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (4, 20, Some(3)));
        // A full bucket keeps its costliest entries.
        for i in 0..100u64 {
            tt.store(k + (i + 1) * (1 << 40), 0, 0, None, 1);
        }
        assert!(tt.probe(k).is_some());
    }
}

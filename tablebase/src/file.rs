//! The file format, one file per layer (`<game>-<n>.tb`) or per shard of a
//! layer (`<game>-<n>.shard-<i>-of-<k>`). All integers little-endian.
//!
//! ```text
//! offset size
//!      0    8  magic "BEANTB\r\n"
//!      8    4  format version (1)
//!     12    4  kind: 0 = layer, 1 = shard
//!     16    4  layer: beans on the board
//!     20    4  shard number i (0 for a layer)
//!     24    4  shards k (1 for a layer)
//!     28    4  reserved, 0
//!     32   24  game id, ASCII, zero-padded ("bohnenspiel", "bohnenspiel-hemprich", "kalah")
//!     56    8  first index covered
//!     64    8  count of indices covered
//!     72    8  flagged boards (layer) / 0 (shard)
//!     80       body
//!  layer body: count values (i8, the mover's net gain, index order), then
//!              flagged × (index u64, lower bound i8, upper bound i8)
//!  shard body: count exits, count lower bounds, count upper bounds (i8)
//!    end    4  CRC-32 (IEEE) of every byte before it
//! ```
//!
//! A layer's value of index `r` is the byte at offset `80 + r`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mancala_rules::GameId;

use crate::index::layer_size;
use crate::solve::{Bounds, Flag, Solved};

pub const MAGIC: &[u8; 8] = b"BEANTB\r\n";
pub const VERSION: u32 = 1;
pub const HEADER: usize = 80;
const GAME_FIELD: usize = 24;
const FLAG_SIZE: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Layer,
    Shard { number: u32, of: u32 },
}

/// What a file's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub game: GameId,
    pub beans: usize,
    pub kind: Kind,
    pub start: u64,
    pub count: u64,
    pub flagged: u64,
}

/// The games the database knows.
pub fn supported(game: GameId) -> bool {
    matches!(
        game,
        GameId::Bohnenspiel | GameId::BohnenspielHemprich | GameId::Kalah
    )
}

/// The directory `engine tb build` writes to without `--out`, and where the
/// engine looks for Kalah layers when `TablebasePath` is empty:
/// `$MANCALA_TABLEBASE` if set, else `$XDG_DATA_HOME/mancala/tablebase`,
/// else `$HOME/.local/share/mancala/tablebase` (the XDG data directory, as
/// other tools keep downloaded data); `None` without a home directory.
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("MANCALA_TABLEBASE") {
        return Some(PathBuf::from(dir));
    }
    let data = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(data.join("mancala").join("tablebase"))
}

pub fn layer_path(dir: &Path, game: GameId, beans: usize) -> PathBuf {
    dir.join(format!("{game}-{beans}.tb"))
}

pub fn shard_path(dir: &Path, game: GameId, beans: usize, number: u32, of: u32) -> PathBuf {
    dir.join(format!("{game}-{beans}.shard-{number}-of-{of}"))
}

impl Header {
    fn encode(&self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        let (kind, number, of) = match self.kind {
            Kind::Layer => (0u32, 0, 1),
            Kind::Shard { number, of } => (1, number, of),
        };
        h[12..16].copy_from_slice(&kind.to_le_bytes());
        h[16..20].copy_from_slice(&(self.beans as u32).to_le_bytes());
        h[20..24].copy_from_slice(&number.to_le_bytes());
        h[24..28].copy_from_slice(&of.to_le_bytes());
        let id = self.game.to_string();
        h[32..32 + id.len()].copy_from_slice(id.as_bytes());
        h[56..64].copy_from_slice(&self.start.to_le_bytes());
        h[64..72].copy_from_slice(&self.count.to_le_bytes());
        h[72..80].copy_from_slice(&self.flagged.to_le_bytes());
        h
    }

    /// Reads a header; the error names what is wrong.
    pub fn decode(h: &[u8]) -> Result<Header, String> {
        if h.len() < HEADER || &h[..8] != MAGIC {
            return Err("not a mancala endgame database file (bad magic)".into());
        }
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(format!(
                "format version {version}, this build reads version {VERSION}"
            ));
        }
        let id = &h[32..32 + GAME_FIELD];
        let id = std::str::from_utf8(&id[..id.iter().position(|&b| b == 0).unwrap_or(GAME_FIELD)])
            .map_err(|_| "game id is not ASCII".to_string())?;
        let game: GameId = id.parse().map_err(|_| format!("unknown game id {id:?}"))?;
        if !supported(game) {
            return Err(format!("no database for game {game}"));
        }
        let beans = u32_at(16) as usize;
        if beans > crate::index::MAX_BEANS {
            return Err(format!("layer {beans} is above 72 beans"));
        }
        let kind = match (u32_at(12), u32_at(20), u32_at(24)) {
            (0, _, _) => Kind::Layer,
            (1, number, of) if number < of => Kind::Shard { number, of },
            (1, number, of) => return Err(format!("shard {number} of {of}")),
            (k, _, _) => return Err(format!("unknown file kind {k}")),
        };
        let (start, count) = (u64_at(56), u64_at(64));
        if start
            .checked_add(count)
            .is_none_or(|e| e > layer_size(beans))
            || (kind == Kind::Layer && (start, count) != (0, layer_size(beans)))
        {
            return Err(format!(
                "indices {start}+{count} do not fit layer {beans} ({} boards)",
                layer_size(beans)
            ));
        }
        Ok(Header {
            game,
            beans,
            kind,
            start,
            count,
            flagged: u64_at(72),
        })
    }

    /// The size the whole file must have.
    pub fn file_len(&self) -> u64 {
        let body = match self.kind {
            Kind::Layer => self.count + self.flagged * FLAG_SIZE as u64,
            Kind::Shard { .. } => 3 * self.count,
        };
        HEADER as u64 + body + 4
    }
}

/// Where a file is written before it is renamed into place: its whole name
/// plus `.partial`. why not `with_extension`: a shard's name has its number
/// after the last dot (`bohnenspiel-12.shard-0-of-3`), so every shard of a
/// layer would share one temporary file, and the tasks of a batch array
/// writing side by side would rename each other's bytes away.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Writes `bytes` to `path` atomically (a temporary file renamed into place),
/// so an interrupted build never leaves a file that looks finished.
fn write_atomic(path: &Path, parts: &[Part]) -> io::Result<()> {
    let tmp = partial_path(path);
    {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        let mut crc = crc32fast::Hasher::new();
        for part in parts {
            match part {
                Part::Bytes(bytes) => {
                    crc.update(bytes);
                    f.write_all(bytes)?;
                }
                Part::Values(values) => write_values(&mut f, &mut crc, values)?,
            }
        }
        f.write_all(&crc.finalize().to_le_bytes())?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    fs::rename(tmp, path)
}

/// What a file is written from: raw bytes, or values written as their
/// two's complement bytes.
enum Part<'a> {
    Bytes(&'a [u8]),
    Values(&'a [i8]),
}

/// Writes `values` as bytes a block at a time (no copy of a whole layer:
/// at 30 beans one is 3 GB).
fn write_values(
    out: &mut impl Write,
    crc: &mut crc32fast::Hasher,
    values: &[i8],
) -> io::Result<()> {
    let mut block = [0u8; 1 << 16];
    for chunk in values.chunks(block.len()) {
        let bytes = &mut block[..chunk.len()];
        for (b, &v) in bytes.iter_mut().zip(chunk) {
            *b = v as u8;
        }
        crc.update(bytes);
        out.write_all(bytes)?;
    }
    Ok(())
}

fn to_values(bytes: &[u8]) -> Vec<i8> {
    bytes.iter().map(|&b| b as i8).collect()
}

/// `bytes[range]` as values, reusing the buffer (in-place collect: no
/// second copy of a layer while it is read).
fn into_values(mut bytes: Vec<u8>, start: usize, end: usize) -> Vec<i8> {
    bytes.truncate(end);
    bytes.drain(..start);
    bytes.into_iter().map(|b| b as i8).collect()
}

pub fn write_layer(path: &Path, game: GameId, layer: &Solved) -> io::Result<()> {
    let header = Header {
        game,
        beans: layer.beans,
        kind: Kind::Layer,
        start: 0,
        count: layer.values.len() as u64,
        flagged: layer.flagged.len() as u64,
    }
    .encode();
    let mut flags = Vec::with_capacity(layer.flagged.len() * FLAG_SIZE);
    for f in &layer.flagged {
        flags.extend_from_slice(&f.index.to_le_bytes());
        flags.push(f.lower as u8);
        flags.push(f.upper as u8);
    }
    write_atomic(
        path,
        &[
            Part::Bytes(&header),
            Part::Values(&layer.values),
            Part::Bytes(&flags),
        ],
    )
}

pub fn write_shard(path: &Path, game: GameId, number: u32, of: u32, b: &Bounds) -> io::Result<()> {
    let header = Header {
        game,
        beans: b.beans,
        kind: Kind::Shard { number, of },
        start: b.start,
        count: b.exit.len() as u64,
        flagged: 0,
    }
    .encode();
    write_atomic(
        path,
        &[
            Part::Bytes(&header),
            Part::Values(&b.exit),
            Part::Values(&b.lower),
            Part::Values(&b.upper),
        ],
    )
}

/// A whole file, its length and checksum checked.
fn read_checked(path: &Path) -> Result<(Header, Vec<u8>), String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = Header::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 != header.file_len() {
        return Err(format!(
            "{}: {} bytes, the header says {} (truncated or not finished)",
            path.display(),
            bytes.len(),
            header.file_len()
        ));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes(sum.try_into().expect("4 bytes"));
    if crc32fast::hash(body) != stored {
        return Err(format!("{}: checksum mismatch", path.display()));
    }
    Ok((header, bytes))
}

/// Reads a layer file, checking header, length and checksum.
pub fn read_layer(path: &Path) -> Result<(GameId, Solved), String> {
    let (header, bytes) = read_checked(path)?;
    if header.kind != Kind::Layer {
        return Err(format!("{}: a shard, not a layer", path.display()));
    }
    let count = header.count as usize;
    let flagged = bytes[HEADER + count..bytes.len() - 4]
        .chunks_exact(FLAG_SIZE)
        .map(|c| Flag {
            index: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
            lower: c[8] as i8,
            upper: c[9] as i8,
        })
        .collect();
    let values = into_values(bytes, HEADER, HEADER + count);
    Ok((
        header.game,
        Solved {
            beans: header.beans,
            values,
            flagged,
        },
    ))
}

/// Reads a shard file, checking header, length and checksum.
pub fn read_shard(path: &Path) -> Result<(Header, Bounds), String> {
    let (header, bytes) = read_checked(path)?;
    if header.kind == Kind::Layer {
        return Err(format!("{}: a layer, not a shard", path.display()));
    }
    let count = header.count as usize;
    let part = |i: usize| to_values(&bytes[HEADER + i * count..HEADER + (i + 1) * count]);
    let bounds = Bounds {
        beans: header.beans,
        start: header.start,
        exit: part(0),
        lower: part(1),
        upper: part(2),
    };
    Ok((header, bounds))
}

/// The header of a file, read alone (no checksum: see [`read_layer`]).
pub fn read_header(path: &Path) -> Result<Header, String> {
    use std::io::Read;
    let mut h = [0u8; HEADER];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut h))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Header::decode(&h).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_a_layer_has_its_own_partial_file() {
        let dir = Path::new("/db");
        let game = GameId::Bohnenspiel;
        let mut paths = vec![layer_path(dir, game, 12)];
        for of in 1..=4 {
            paths.extend((0..of).map(|i| shard_path(dir, game, 12, i, of)));
        }
        let partial: std::collections::HashSet<_> = paths.iter().map(|p| partial_path(p)).collect();
        assert_eq!(partial.len(), paths.len());
        for p in &paths {
            assert!(
                !paths.contains(&partial_path(p)),
                "{} is a finished file's name",
                p.display()
            );
        }
        assert_eq!(
            partial_path(&shard_path(dir, game, 12, 0, 3)),
            Path::new("/db/bohnenspiel-12.shard-0-of-3.partial")
        );
    }

    #[test]
    fn shards_written_side_by_side_are_all_kept() {
        let dir = std::env::temp_dir().join(format!("tb-partial-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let game = GameId::Bohnenspiel;
        let beans = 3;
        let of = 3;
        let barrier = std::sync::Barrier::new(of as usize);
        std::thread::scope(|s| {
            for number in 0..of {
                let (dir, barrier) = (&dir, &barrier);
                s.spawn(move || {
                    let (start, end) = crate::build::shard_range(beans, number, of);
                    let len = (end - start) as usize;
                    let mark = number as i8;
                    let bounds = Bounds {
                        beans,
                        start,
                        exit: vec![mark; len],
                        lower: vec![-mark; len],
                        upper: vec![mark; len],
                    };
                    barrier.wait();
                    write_shard(
                        &shard_path(dir, game, beans, number, of),
                        game,
                        number,
                        of,
                        &bounds,
                    )
                    .unwrap();
                });
            }
        });
        for number in 0..of {
            let (h, b) = read_shard(&shard_path(&dir, game, beans, number, of)).unwrap();
            assert_eq!(h.kind, Kind::Shard { number, of });
            assert_eq!(b.start, crate::build::shard_range(beans, number, of).0);
            assert!(
                b.exit.iter().all(|&v| v == number as i8),
                "shard {number} holds another's bytes"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}

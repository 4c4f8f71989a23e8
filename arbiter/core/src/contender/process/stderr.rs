//! An engine's stderr into its log file: copied as it comes, capped at the
//! spec's `stderr_max`, the rest read into the void so the engine never
//! blocks; a log this process created and nobody wrote to is removed.

use std::path::PathBuf;

use tokio::io::AsyncReadExt;

use super::pipe::READ_CHUNK;

/// (`u64::MAX`: none) and, for a log this process created, its path, so that
/// a log left empty is removed.
pub(super) struct StderrSink {
    pub(super) file: std::fs::File,
    pub(super) max: u64,
    pub(super) remove_if_empty: Option<PathBuf>,
}

/// Copies an engine's stderr into its log file until the file holds `max`
/// bytes, then writes a note and reads the rest into the void, until the
/// engine (and whoever shares its stderr) closes it. Write errors stop the
/// copying, never the reading.
pub(super) async fn copy_capped(mut pipe: tokio::process::ChildStderr, sink: StderrSink) {
    use std::io::Write;
    let StderrSink {
        mut file,
        max,
        remove_if_empty,
    } = sink;
    let mut room = file.metadata().map_or(max, |m| max.saturating_sub(m.len()));
    let mut writing = room > 0;
    let mut wrote = false;
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        wrote = true;
        if !writing {
            continue;
        }
        let take = usize::try_from(room).map_or(n, |r| r.min(n));
        // why a plain write: a regular file takes a few KiB at once; the cap
        // keeps the total small.
        let mut ok = file.write_all(&buf[..take]).is_ok();
        room -= take as u64;
        if room == 0 && ok {
            ok = writeln!(
                file,
                "\n[arbiter: this log reached stderr_max={max} bytes; the rest of the engine's \
                 stderr was discarded]"
            )
            .is_ok();
            writing = false;
        }
        writing &= ok;
    }
    if let (false, Some(path)) = (wrote, remove_if_empty) {
        // why check the length again: another writer may share the file.
        if file.metadata().is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(path);
        }
    }
}

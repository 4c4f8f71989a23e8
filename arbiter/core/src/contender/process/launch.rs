//! Before an engine starts: the program resolved and checked, the working
//! directory checked, and an `exec` failure turned into a clear
//! [`SpawnError`].

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::SpawnError;

/// current directory and checked up front, for clear errors.
pub(super) fn resolve_program(command: &Path) -> Result<PathBuf, SpawnError> {
    if command.as_os_str().is_empty() {
        return Err(SpawnError::NotFound {
            path: command.to_path_buf(),
        });
    }
    if command.components().count() == 1 && !command.is_absolute() {
        return Ok(command.to_path_buf()); // a bare name: `PATH` lookup at spawn
    }
    let not_executable = |reason: &str| SpawnError::NotExecutable {
        path: command.to_path_buf(),
        reason: reason.to_string(),
    };
    let meta = match std::fs::metadata(command) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(SpawnError::NotFound {
                path: command.to_path_buf(),
            })
        }
        Err(e) => return Err(not_executable(&e.to_string())),
    };
    if meta.is_dir() {
        return Err(not_executable("it is a directory"));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(not_executable("it has no execute permission"));
    }
    std::path::absolute(command).map_err(|source| SpawnError::Io {
        path: command.to_path_buf(),
        source,
    })
}

pub(super) fn check_working_dir(dir: &Path) -> Result<(), SpawnError> {
    let problem = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => "not a directory".to_string(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "not found".to_string(),
        Err(e) => e.to_string(),
    };
    Err(SpawnError::WorkingDir {
        path: dir.to_path_buf(),
        reason: problem,
    })
}

/// Maps an `exec` failure to a clear error. `exists`: whether the program file
/// itself was found (then "not found" means its interpreter or loader is missing).
pub(super) fn spawn_error(command: &Path, exists: bool, e: io::Error) -> SpawnError {
    let path = command.to_path_buf();
    match e.kind() {
        io::ErrorKind::NotFound if exists => SpawnError::NotExecutable {
            path,
            reason: "its interpreter (#! line) or loader was not found".to_string(),
        },
        io::ErrorKind::NotFound => SpawnError::NotFound { path },
        io::ErrorKind::PermissionDenied => SpawnError::NotExecutable {
            path,
            reason: e.to_string(),
        },
        _ if e.raw_os_error() == Some(libc::ENOEXEC) => SpawnError::NotExecutable {
            path,
            reason: "not a program this system can run (exec format error)".to_string(),
        },
        _ => SpawnError::Io { path, source: e },
    }
}

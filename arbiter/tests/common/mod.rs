//! Shared by the end-to-end tests (`match.rs`, `check.rs`): the engine
//! binaries, and finding processes left behind.

// why: each test crate compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Directory holding the `testbot` and `engine` binaries, built once per run.
///
/// `cargo test -p arbiter` does not build other packages' binaries, so this
/// runs `cargo build -p testbots -p engine` (with this test binary's profile)
/// once; cargo makes that a no-op when they are fresh.
pub fn bin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        // target/<profile-dir>/deps/<test binary>
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target profile directory")
            .to_path_buf();
        let profile = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("debug")
            .to_string();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "testbots", "-p", "engine"]);
        match profile.as_str() {
            "debug" => {}
            "release" => {
                build.arg("--release");
            }
            other => {
                build.args(["--profile", other]);
            }
        }
        let status = build.status().expect("cannot run cargo");
        assert!(status.success(), "cargo build -p testbots -p engine failed");
        dir
    })
}

pub fn testbot() -> String {
    bin_dir().join("testbot").display().to_string()
}

pub fn engine() -> String {
    bin_dir().join("engine").display().to_string()
}

/// A scratch directory for one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(prefix: &str, test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("arbiter-{prefix}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        // why canonicalize: /proc/<pid>/cwd shows the resolved path.
        Scratch(dir.canonicalize().expect("canonical scratch dir"))
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The `dir=` engine token that starts an engine in this directory, which
    /// is how [`Scratch::assert_no_leftovers`] finds it and its children.
    pub fn dir_arg(&self) -> String {
        format!("dir={}", self.0.display())
    }

    /// No live process runs in the scratch directory or names it in its
    /// arguments (engines, their grandchildren). Waits a little for the kernel.
    pub fn assert_no_leftovers(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = processes_in(&self.0);
            if left.is_empty() {
                return;
            }
            assert!(Instant::now() < deadline, "processes left behind: {left:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `/proc/<pid>/stat` state of a process; `None` once it is gone.
pub fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next())
}

/// Live (not zombie) processes whose cwd is `dir` or whose arguments mention it.
pub fn processes_in(dir: &Path) -> Vec<(u32, String)> {
    let needle = dir.display().to_string();
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || matches!(proc_state(pid), Some('Z' | 'X') | None) {
            continue;
        }
        let cwd = std::fs::read_link(entry.path().join("cwd")).ok();
        let cmdline = std::fs::read(entry.path().join("cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        if cwd.as_deref() == Some(dir) || cmdline.contains(&needle) {
            found.push((pid, cmdline));
        }
    }
    found
}

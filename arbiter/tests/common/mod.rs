//! Shared by the arbiter's integration tests: the binaries under test and
//! scratch directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

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
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

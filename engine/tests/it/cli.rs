//! The `engine` command line: `perft` and `bench`.

use assert_cmd::Command;

#[test]
fn perft_prints_divide_then_total() {
    let out = Command::cargo_bin("engine")
        .unwrap()
        .args(["perft", "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", "3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[5], "nodes 79");
    let sum: u64 = lines[..5]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 79);
}

#[test]
fn perft_rejects_a_bad_position_naming_the_field() {
    Command::cargo_bin("engine")
        .unwrap()
        .args(["perft", "bosh 4,4 S 0/0 1", "2"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("invalid holes"));
}

#[test]
fn bench_refuses_seconds_that_are_not_a_sane_duration() {
    for bad in ["NaN", "1e300", "-1", "0", "inf"] {
        let out = Command::cargo_bin("engine")
            .unwrap()
            .arg("bench")
            .arg(format!("--seconds={bad}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("expected seconds above 0 and at most 3600") && !err.contains("panicked"),
            "{bad}: {err}"
        );
    }
}

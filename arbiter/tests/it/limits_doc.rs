//! Every limit the front, the remote endpoint and the KGP listener enforce
//! is written where users read it, with the number the code uses: each row
//! of protocol-spec.md's table (section 16.6) and of docs/gui.md's
//! ("Limits") is read next to the constant it documents, so a changed
//! constant with unchanged docs fails here.

use std::path::Path;
use std::time::Duration;

use arbiter_net::front;
use arbiter_net::remote::{self, kgp};

fn read(doc: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(doc);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The table row of `doc` whose first cell is `key`.
fn row<'d>(doc: &'d str, key: &str) -> &'d str {
    let start = format!("| {key} |");
    doc.lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no row {start:?}"))
}

fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs())
}

/// Asserts the row `key` names every one of `values`.
fn documents(doc: &str, key: &str, values: &[String]) {
    let row = row(doc, key);
    for v in values {
        assert!(row.contains(v.as_str()), "{key}: {v:?} not in {row:?}");
    }
}

#[test]
fn the_remote_limits_are_the_ones_protocol_spec_16_6_lists() {
    let spec = read("protocol-spec.md");
    let section = spec
        .split("### 16.6 Limits")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("section 16.6");
    let l = remote::Limits::default();
    let d = front::Limits::default();
    documents(
        section,
        "connections at once",
        &[d.max_connections.to_string()],
    );
    documents(
        section,
        "connections at once from one address",
        &[
            remote::MAX_CONNECTIONS_PER_ADDRESS.to_string(),
            front::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS.to_string(),
            "half".into(),
        ],
    );
    documents(
        section,
        "TLS handshake, upgrade request head",
        &[secs(d.header_timeout)],
    );
    documents(section, "authentication", &[secs(l.auth_deadline)]);
    documents(
        section,
        "token",
        &[remote::tokens::MIN_TOKEN_LEN.to_string()],
    );
    documents(section, "frame read at all", &[l.max_frame.to_string()]);
    documents(
        section,
        "line rate",
        &[
            l.lines_per_second.to_string(),
            l.line_burst.to_string(),
            format!("allows {} lines more", l.answer_credit),
        ],
    );
    documents(
        section,
        "unsolicited lines",
        &[
            l.inbound_queue.to_string(),
            format!("{} lines sent that nobody asked for", l.inbound_queue),
        ],
    );
    documents(section, "pings", &[secs(l.ping_interval)]);
    documents(section, "unanswered ping", &[secs(l.pong_timeout)]);
    documents(section, "frame going out", &[secs(l.write_timeout)]);
    documents(
        section,
        "reading on after the close frame",
        &[secs(remote::frames::CLOSE_LINGER)],
    );
    let logins = remote::logins::LoginLimit::default();
    documents(
        section,
        "failed token checks from one address",
        &[
            format!("{} within {}", logins.failures, secs(logins.window)),
            format!("at most {} addresses", logins.addresses),
            format!(
                "from this address ({} within {}); try again in <s> s",
                logins.failures,
                secs(logins.window)
            ),
            "`Retry-After: <s>`".into(),
        ],
    );
    documents(
        section,
        "connections of one token",
        &[
            format!(
                "`Retry-After: {}`",
                remote::registry::BUSY_RETRY_AFTER.as_secs()
            ),
            format!(
                "its limit; try again in {}",
                secs(remote::registry::BUSY_RETRY_AFTER)
            ),
        ],
    );
    documents(section, "KGP line", &[kgp::wire::MAX_LINE.to_string()]);
    documents(
        section,
        "KGP greetings at once",
        &[kgp::MAX_GREETINGS.to_string()],
    );
    documents(
        section,
        "KGP greetings at once from one address",
        &[kgp::MAX_GREETINGS_PER_ADDRESS.to_string()],
    );
}

#[test]
fn the_front_limits_are_the_ones_gui_md_lists() {
    let gui = read("docs/gui.md");
    let section = gui
        .split("## Limits")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the Limits section");
    let d = front::Limits::default();
    documents(
        section,
        "`--max-connections N`",
        &[d.max_connections.to_string(), "503".into()],
    );
    documents(
        section,
        "`--max-connections-per-address N`",
        &[d.max_connections_per_address.to_string(), "half".into()],
    );
    documents(
        section,
        "`--header-timeout S`",
        &[d.header_timeout.as_secs().to_string()],
    );
    documents(
        section,
        "`--idle-timeout S`",
        &[d.idle_timeout.as_secs().to_string()],
    );
    documents(
        section,
        "`--request-timeout S`",
        &[d.request_timeout.as_secs().to_string()],
    );
    documents(
        section,
        "`--max-body BYTES`",
        &[format!("{} MiB", d.max_body / (1024 * 1024))],
    );
    assert!(
        section.contains(&format!(
            "at most {} at once",
            front::accept::LINGERING_REFUSALS
        )) && section.contains("up to a second"),
        "the refusals' linger"
    );
    assert_eq!(front::accept::REFUSAL_LINGER, Duration::from_secs(1));
}

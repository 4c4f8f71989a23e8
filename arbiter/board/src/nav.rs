//! The navigation bar of a server's pages. One HTML page (the replay page,
//! the live page) is served by several servers — `serve`, the live page of
//! `--live`, the arena — and each has its own pages to link to: a link to
//! `/play` on a server without it would answer 404. So the bar is written
//! per server, from its list of links, when its router is built.

use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// A server's pages: `(address, label)` per link, in order.
pub type Nav = &'static [(&'static str, &'static str)];

/// The browser board's (`arbiter serve`).
pub const BOARD_NAV: Nav = &[
    ("/play", "Play"),
    ("/analyse", "Analyse"),
    ("/replay", "Replay"),
];

/// The live page's server (`match`/`tournament --live`): the event and its log.
pub const LIVE_NAV: Nav = &[("/live", "Live"), ("/replay", "Replay")];

const OPEN: &str = "<nav aria-label=\"Mode\">";
const CLOSE: &str = "</nav>";

/// `html` with its navigation bar holding `nav`'s links, the one to `here`
/// marked active. Each link carries `data-nav` (its address without the
/// slashes), as the board's script marks the mode it shows.
pub fn with_nav(html: &str, nav: Nav, here: &str) -> String {
    let (Some(start), Some(end)) = (html.find(OPEN), html.find(CLOSE)) else {
        return html.to_owned();
    };
    let mut bar = String::from(OPEN);
    for (href, label) in nav {
        let name = href.trim_matches('/');
        let active = if *href == here {
            " class=\"active\""
        } else {
            ""
        };
        bar.push_str(&format!(
            "\n    <a href=\"{href}\" data-nav=\"{name}\"{active}>{label}</a>"
        ));
    }
    bar.push_str("\n  ");
    format!("{}{bar}{}", &html[..start], &html[end..])
}

/// A page written once (its bar filled in) and served as is.
#[derive(Clone, Debug)]
pub struct Page(Bytes);

impl Page {
    pub fn new(html: String) -> Page {
        Page(Bytes::from(html))
    }

    pub fn from_static(html: &'static str) -> Page {
        Page(Bytes::from_static(html.as_bytes()))
    }

    pub fn respond(&self) -> Response {
        (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            self.0.clone(),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_holds_the_servers_links_and_marks_the_page() {
        let html = "<header>\n  <nav aria-label=\"Mode\">\n    <a href=\"/play\">Play</a>\n  </nav>\n</header>";
        let out = with_nav(html, LIVE_NAV, "/replay");
        assert!(!out.contains("/play"), "{out}");
        assert!(
            out.contains("<a href=\"/live\" data-nav=\"live\">Live</a>")
                && out.contains(
                    "<a href=\"/replay\" data-nav=\"replay\" class=\"active\">Replay</a>"
                ),
            "{out}"
        );
        assert!(
            out.starts_with("<header>") && out.ends_with("</nav>\n</header>"),
            "{out}"
        );
    }
}

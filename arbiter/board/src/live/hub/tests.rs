use super::*;
use crate::board::view;
use mancala_rules::{start_position, GameId};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

fn started(id: u64) -> LiveMsg {
    LiveMsg::GameStarted(GameStarted {
        id,
        round: "1".into(),
        game: "bohnenspiel".into(),
        south: "a".into(),
        north: "b".into(),
        board: view(&start_position(GameId::Bohnenspiel)).expect("start lays out"),
        clocks_ms: [Some(1000), Some(1000)],
    })
}

fn ply(id: u64, n: u32) -> LiveMsg {
    LiveMsg::Ply(PlyPlayed {
        id,
        ply: n,
        side: "south",
        mv: "6".into(),
        time_ms: 3,
        board: view("bohnenspiel 6,6,6,6,6,0,7,7,7,7,7,7 N 0/0").expect("valid"),
        steps: Vec::new(),
        clocks_ms: [Some(997), Some(1000)],
        engine: EngineLine {
            depth: Some(4),
            score: Some("+0.12".into()),
            pv: vec!["6".into(), "7".into()],
        },
    })
}

fn finished(id: u64, index: usize) -> LiveMsg {
    let log = arbiter_core::testing::rules_log();
    LiveMsg::GameFinished(GameFinished::new(Some(id), Some(0), index, &log))
}

#[test]
fn a_finished_game_carries_its_scores_and_the_snapshot_keeps_the_newest_graphs() {
    let LiveMsg::GameFinished(f) = finished(1, 0) else {
        panic!("a finished game");
    };
    // The movers from the rules' replay, the scores as logged (mover's side).
    let plies: Vec<_> = f
        .scores
        .iter()
        .map(|p| (p.side, p.score.as_deref()))
        .collect();
    assert_eq!(plies, [("south", Some("-35")), ("north", Some("+M1"))]);
    let hub = LiveHub::new();
    for i in 0..GRAPHS_KEPT + 5 {
        hub.publish(finished(i as u64, i));
    }
    let snap = hub.snapshot();
    let graphed: Vec<bool> = snap.finished.iter().map(|f| !f.scores.is_empty()).collect();
    assert_eq!(graphed.len(), GRAPHS_KEPT + 5);
    assert!(graphed[..5].iter().all(|g| !g), "{graphed:?}");
    assert!(graphed[5..].iter().all(|g| *g), "{graphed:?}");
}

#[test]
fn the_snapshot_follows_a_game_from_start_to_finish() {
    let hub = LiveHub::new();
    hub.publish(started(3));
    assert_eq!(hub.snapshot().playing.len(), 1);
    hub.publish(ply(3, 1));
    let snap = hub.snapshot();
    let last = snap.playing[0].last.as_ref().expect("a ply");
    assert_eq!(last.engine.pv, ["6", "7"]);
    // A ply of a game the hub never saw start is ignored, not an error.
    hub.publish(ply(9, 1));
    assert_eq!(hub.snapshot().playing.len(), 1);
    hub.publish(finished(3, 0));
    let snap = hub.snapshot();
    assert!(snap.playing.is_empty());
    assert_eq!(snap.finished.len(), 1);
    assert_eq!(snap.finished_count, 1);
}

#[test]
fn a_subscriber_sees_each_message_after_its_snapshot_once() {
    let hub = LiveHub::new();
    hub.publish(started(1));
    let (snap, mut rx) = hub.subscribe();
    assert_eq!(snap.playing.len(), 1);
    assert!(matches!(rx.try_recv(), Err(TryRecvError::Empty)));
    hub.publish(ply(1, 1));
    // As its JSON text, what a page is sent.
    let text = rx.try_recv().expect("the ply");
    assert_eq!(&*text, serde_json::to_string(&ply(1, 1)).expect("json"));
    assert!(matches!(rx.try_recv(), Err(TryRecvError::Empty)));
}

#[tokio::test]
async fn a_lagging_subscriber_loses_messages_and_publish_never_waits() {
    let hub = LiveHub::with_capacity(4);
    let (_, mut rx) = hub.subscribe();
    hub.publish(started(1));
    for n in 1..=100 {
        hub.publish(ply(1, n));
    }
    let first = rx.recv().await;
    assert!(matches!(first, Err(RecvError::Lagged(_))), "{first:?}");
    // The snapshot has the latest ply regardless.
    let snap = hub.snapshot();
    assert_eq!(snap.playing[0].last.as_ref().map(|p| p.ply), Some(100));
}

#[test]
fn the_finished_list_is_bounded_but_counted() {
    let hub = LiveHub::new();
    for i in 0..(FINISHED_KEPT + 10) {
        hub.publish(finished(i as u64, i));
    }
    let snap = hub.snapshot();
    assert_eq!(snap.finished.len(), FINISHED_KEPT);
    assert_eq!(snap.finished_count, (FINISHED_KEPT + 10) as u64);
    assert_eq!(snap.finished[0].summary.index, 10);
}

#[test]
fn progress_gets_an_eta_once_games_finish() {
    let hub = LiveHub::new();
    let progress = |done| {
        LiveMsg::Progress(Progress {
            done,
            total: Some(10),
            eta_secs: None,
        })
    };
    hub.publish(progress(2));
    assert_eq!(hub.snapshot().progress.and_then(|p| p.eta_secs), None);
    std::thread::sleep(std::time::Duration::from_millis(5));
    hub.publish(progress(4));
    let eta = hub.snapshot().progress.and_then(|p| p.eta_secs);
    assert!(eta.is_some_and(|s| s > 0.0), "{eta:?}");
}

#[test]
fn messages_are_tagged_with_their_type() {
    let text = serde_json::to_string(&ply(1, 1)).expect("serialises");
    assert!(text.starts_with(r#"{"type":"ply","id":1"#), "{text}");
    assert!(text.contains(r#""move":"6""#), "{text}");
    let ended = LiveMsg::Ended {
        message: "done".into(),
    };
    assert_eq!(
        serde_json::to_string(&ended).expect("serialises"),
        r#"{"type":"ended","message":"done"}"#
    );
}

#[tokio::test]
async fn flush_waits_for_page_writers() {
    let hub = LiveHub::new();
    let guard = hub.page_writer();
    let waiting = {
        let hub = hub.clone();
        tokio::spawn(async move { hub.flush(std::time::Duration::from_secs(600)).await })
    };
    // With nothing queued, only the writer keeps flush waiting (it checks
    // every 20 ms; a slow machine can only make this pass more easily).
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(!waiting.is_finished(), "a writer is still running");
    drop(guard);
    waiting
        .await
        .expect("flush returns once the writer is done");
}

fn thinking(id: u64, ply: u32, depth: u32) -> LiveMsg {
    LiveMsg::Thinking(Thinking {
        id,
        side: "south",
        ply,
        engine: EngineLine {
            depth: Some(depth),
            score: Some("+3".into()),
            pv: vec!["6".into()],
        },
    })
}

#[test]
fn a_search_in_progress_shows_until_its_move_is_played() {
    let hub = LiveHub::new();
    hub.publish(started(1));
    hub.publish(thinking(1, 1, 5));
    let depth = |hub: &LiveHub| {
        hub.snapshot().playing[0]
            .thinking
            .as_ref()
            .and_then(|t| t.engine.depth)
    };
    assert_eq!(depth(&hub), Some(5));
    hub.publish(thinking(1, 1, 7));
    assert_eq!(depth(&hub), Some(7), "the latest line");
    hub.publish(ply(1, 1));
    assert_eq!(depth(&hub), None, "the move is played");
    // A line of the search just finished, arriving after its move: ignored.
    hub.publish(thinking(1, 1, 9));
    assert_eq!(depth(&hub), None);
    hub.publish(thinking(1, 2, 3));
    assert_eq!(depth(&hub), Some(3), "the next search");
}

fn figures(ply: u32, side: &'static str) -> PlyFigures {
    PlyFigures {
        ply,
        side,
        time_ms: 7,
        clocks_ms: [Some(900), Some(800)],
        depth: Some(3),
        score: Some(arbiter_core::records::log::Score::Cp(12)),
        pv: vec!["1".into()],
    }
}

#[test]
fn plies_told_with_no_subscriber_are_built_when_the_event_is_read() {
    let hub = LiveHub::new();
    hub.publish(started(4));
    let mut game = mancala_rules::new_game(GameId::Bohnenspiel);
    let mut before = game.position_string();
    let mut n = 0;
    for _ in 0..5 {
        let mv = game.legal_moves()[0].clone();
        before = game.position_string();
        game.play(&mv).expect("legal");
        n += 1;
        let side = if n % 2 == 1 { "south" } else { "north" };
        hub.ply(4, &mv, figures(n, side));
    }
    let snap = hub.snapshot();
    let last = snap.playing[0].last.as_ref().expect("the latest ply");
    assert_eq!(last.ply, 5);
    assert_eq!(last.board.position, game.position_string());
    let last_move = game.moves().last().cloned().expect("a move");
    assert_eq!(last.mv, last_move);
    let trace = mancala_rules::trace_move(&before, &last_move).expect("traces");
    assert_eq!(last.steps, trace.steps, "the last move's steps");
    assert_eq!(last.engine.score.as_deref(), Some("+12"));
    assert_eq!(last.clocks_ms, [Some(900), Some(800)]);
    // Read again with nothing new: the same.
    assert_eq!(hub.snapshot(), snap);
    // Built already: the next plies go on from there.
    let mv = game.legal_moves()[0].clone();
    game.play(&mv).expect("legal");
    hub.ply(4, &mv, figures(6, "south"));
    let (snap, _rx) = hub.subscribe();
    let last = snap.playing[0].last.as_ref().expect("the latest ply");
    assert_eq!(
        (last.ply, last.board.position.clone()),
        (6, game.position_string())
    );
    // A ply of a game the hub never saw start is ignored.
    hub.ply(99, "1", figures(1, "south"));
    assert_eq!(hub.snapshot().playing.len(), 1);
}

#[test]
fn with_a_subscriber_each_ply_is_sent_built() {
    let hub = LiveHub::new();
    hub.publish(started(2));
    // A ply before anyone subscribed, then one after.
    let mut game = mancala_rules::new_game(GameId::Bohnenspiel);
    let first = game.legal_moves()[0].clone();
    game.play(&first).expect("legal");
    hub.ply(2, &first, figures(1, "south"));
    let (snap, mut rx) = hub.subscribe();
    assert_eq!(snap.playing[0].last.as_ref().map(|p| p.ply), Some(1));
    let before = game.position_string();
    let second = game.legal_moves()[0].clone();
    game.play(&second).expect("legal");
    hub.ply(2, &second, figures(2, "north"));
    let text = rx.try_recv().expect("the ply is sent");
    let sent: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(sent["type"], "ply");
    assert_eq!(sent["ply"], 2);
    assert_eq!(sent["board"]["position"], game.position_string().as_str());
    let steps = mancala_rules::trace_move(&before, &second)
        .expect("traces")
        .steps;
    assert_eq!(sent["steps"], serde_json::to_value(&steps).expect("steps"));
    assert!(matches!(rx.try_recv(), Err(TryRecvError::Empty)));
}

#[test]
fn a_search_shown_before_unread_plies_is_not_shown_after_them() {
    let hub = LiveHub::new();
    hub.publish(started(1));
    hub.publish(thinking(1, 1, 5));
    let mut game = mancala_rules::new_game(GameId::Bohnenspiel);
    let mv = game.legal_moves()[0].clone();
    game.play(&mv).expect("legal");
    hub.ply(1, &mv, figures(1, "south"));
    // A late line of the search for ply 1: old news, though ply 1 is not built yet.
    hub.publish(thinking(1, 1, 9));
    let snap = hub.snapshot();
    assert!(snap.playing[0].thinking.is_none(), "{snap:?}");
    hub.publish(thinking(1, 2, 2));
    assert!(hub.snapshot().playing[0].thinking.is_some());
}

#[test]
fn a_delayed_hub_never_shows_a_ply_newer_than_the_delay_and_a_finished_game_whole() {
    const DELAY: u32 = 4;
    let hub = LiveHub::with_delay(DELAY);
    assert_eq!(hub.delay(), DELAY);
    hub.publish(started(3));
    let (snap, mut rx) = hub.subscribe();
    assert_eq!(snap.delay_plies, DELAY);
    let mut game = mancala_rules::new_game(GameId::Bohnenspiel);
    // The position after each ply (index 0: the start).
    let mut positions = vec![game.position_string()];
    for n in 1..=20u32 {
        let mv = game.legal_moves()[0].clone();
        game.play(&mv).expect("legal");
        positions.push(game.position_string());
        let side = if n % 2 == 1 { "south" } else { "north" };
        hub.ply(3, &mv, figures(n, side));
        // A search and a built ply published meanwhile: neither shown.
        hub.publish(thinking(3, n + 1, 5));
        hub.publish(ply(3, n));
        let snap = hub.snapshot();
        let g = &snap.playing[0];
        assert!(g.thinking.is_none(), "ply {n}: {g:?}");
        let shown = n.checked_sub(DELAY).filter(|&k| k > 0);
        assert_eq!(g.last.as_ref().map(|p| p.ply), shown, "ply {n}");
        let position = g
            .last
            .as_ref()
            .map_or(&g.start.board.position, |p| &p.board.position);
        assert_eq!(position, &positions[shown.unwrap_or(0) as usize], "ply {n}");
        // The stream: exactly the ply that many behind, without its pv.
        let sent: Vec<serde_json::Value> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|t| serde_json::from_str(&t).expect("JSON"))
            .collect();
        match shown {
            None => assert!(sent.is_empty(), "ply {n}: {sent:?}"),
            Some(k) => {
                assert_eq!(sent.len(), 1, "ply {n}: {sent:?}");
                assert_eq!(sent[0]["type"], "ply");
                assert_eq!(sent[0]["ply"], k);
                assert_eq!(sent[0]["board"]["position"], positions[k as usize].as_str());
                assert_eq!(sent[0]["engine"]["pv"], serde_json::json!([]));
                assert_eq!(sent[0]["engine"]["depth"], 3, "the figures of ply {k}");
            }
        }
    }
    // The drain's deadline still counts the game's real clocks.
    assert_eq!(hub.in_progress()[0].clocks, [Some(900), Some(800)]);
    // The game ends: shown whole, no longer in progress.
    let log = arbiter_core::testing::rules_log();
    hub.publish(LiveMsg::GameFinished(GameFinished::new(
        Some(3),
        Some(0),
        0,
        &log,
    )));
    let snap = hub.snapshot();
    assert!(snap.playing.is_empty());
    assert_eq!(snap.finished[0].summary.plies, log.moves.len());
    let sent: serde_json::Value =
        serde_json::from_str(&rx.try_recv().expect("the finished game is sent")).expect("JSON");
    assert_eq!(sent["type"], "game_finished");
    assert_eq!(sent["summary"]["plies"], log.moves.len());
}

#[test]
fn an_undelayed_snapshot_says_no_delay() {
    let hub = LiveHub::new();
    let text = serde_json::to_string(&hub.snapshot()).expect("JSON");
    assert!(!text.contains("delay_plies"), "{text}");
}

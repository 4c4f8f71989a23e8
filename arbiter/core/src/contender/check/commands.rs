//! The checks of the other commands: `gameover`, `error-messages` (an
//! `info string error` per malformed command), `malformed-input` and `quit`.

use std::time::Duration;

use mancala_rules::GameId;
use tokio::time::Instant;

use super::*;

impl<F: FnMut(&CheckLine)> Checker<F> {
    /// `gameover` while idle (as after every game), then `isready`: the engine
    /// is still there and answers, with no `bestmove`.
    pub(super) async fn gameover(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        const LINE: &str = "gameover 1-0 North forfeits on time";
        let limit = self.limits.ready;
        let s = self.session().await?;
        let result = async {
            s.send(LINE).await?;
            s.ready(limit).await
        }
        .await;
        match result {
            Ok(()) => Ok(format!("`{LINE}`, then readyok")),
            Err(fault) => {
                self.discard().await;
                Err(format!("`{LINE}` then isready: {fault}"))
            }
        }
    }

    /// Each malformed known command, then `isready`: an `info string error`
    /// line before `readyok`, and no `bestmove` (spec section 9).
    pub(super) async fn error_messages(&mut self) -> Result<String, String> {
        const MALFORMED: [&str; 4] = [
            "position pos nonsense",
            "newgame nosuchgame",
            "setoption name NoSuchOption value 1",
            "go depth notanumber",
        ];
        let limit = self.limits.ready;
        for command in MALFORMED {
            let s = self.session().await?;
            let result: Result<bool, Fault> = async {
                s.send(command).await?;
                s.send("isready").await?;
                let deadline = Instant::now() + limit;
                let mut said = false;
                loop {
                    let line = s.read_line(deadline, "readyok").await?;
                    let line = line.trim();
                    if line == "readyok" {
                        return Ok(said);
                    }
                    if is_bestmove(line) {
                        return Err(Fault::StrayBestmove {
                            line: line.to_owned(),
                            when: "before readyok",
                        });
                    }
                    said |= line.starts_with("info string error");
                }
            }
            .await;
            match result {
                Ok(true) => {}
                Ok(false) => {
                    return Err(format!(
                        "`{command}`: no `info string error` line before readyok"
                    ))
                }
                Err(fault) => {
                    self.discard().await;
                    return Err(format!("`{command}` then isready: {fault}"));
                }
            }
        }
        Ok(format!("{} commands", MALFORMED.len()))
    }

    /// Junk, unknown and malformed lines; the engine must still answer
    /// `isready` (and not exit).
    pub(super) async fn malformed_input(&mut self) -> Result<String, String> {
        const JUNK: &[&str] = &[
            "",
            "   ",
            "xyzzy plugh",
            "UMI",
            "bestmove 1",
            "go depth notanumber",
            "go perft",
            "position",
            "position pos nonsense",
            "position pos bohnenspiel 6,6,6 S 0/0",
            "position startpos moves 99 99",
            "setoption name NoSuchOption value 1",
            "setoption",
            "newgame nosuchgame",
            "newgame",
            "gameover 2-2",
            "\u{1}\u{7}\u{1b}[31m",
            "stop",
            "ponderhit",
        ];
        self.session().await?;
        let limit = self.ready_limit();
        let s = self.session().await?;
        let long = "x".repeat(100_000);
        let mut sent = 0;
        for line in JUNK.iter().copied().chain([long.as_str()]) {
            s.send(line)
                .await
                .map_err(|f| format!("after {sent} junk lines: {f}"))?;
            sent += 1;
        }
        let result = s.ready(limit).await;
        match result {
            Ok(()) => Ok(format!("{sent} junk lines")),
            Err(fault) => {
                self.discard().await;
                Err(format!("isready after {sent} junk lines: {fault}"))
            }
        }
    }

    /// `quit`: the engine exits within a second. The spec asks only that it
    /// exit (section 4), so any exit status passes; a non-zero one is noted.
    pub(super) async fn quit(&mut self) -> Result<String, String> {
        self.session().await?;
        let Some(s) = self.session.take() else {
            return Err("no engine".to_owned());
        };
        let started = Instant::now();
        let report = s.quit(Duration::from_secs(1)).await;
        let ms = started.elapsed().as_millis();
        match report.exit {
            _ if report.forced => Err("still running 1000 ms after quit (killed)".to_owned()),
            Some(Exit::Code(0)) => Ok(format!("exited after {ms} ms")),
            Some(exit) => Ok(format!("{exit} {ms} ms after quit")),
            None => Ok(format!("exited after {ms} ms, status unknown")),
        }
    }
}

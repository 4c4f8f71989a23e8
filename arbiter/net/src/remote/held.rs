//! A connection's lines as the game that holds it reads and writes them
//! ([`crate::remote::link`]): through channels to the transport's own task
//! (KGP's), or, for a `/umi` connection, on its socket directly, claimed
//! from its keeper on first use ([`crate::remote::socket`]).

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::time::{timeout_at, Instant};

use crate::remote::conn::Inbound;
use crate::remote::registry::Pipe;
use crate::remote::socket::{self, Claim, UmiSocket, CLOSED_BY_ARBITER};
use arbiter_core::contender::process::WriteError;

/// What a read found.
pub enum Got {
    Item(Inbound),
    /// Nothing yet: the deadline passed, or (without waiting) none ready.
    Nothing,
    /// The connection has ended (its state says why).
    Ended,
}

pub struct Held(Io);

enum Io {
    Channels {
        inbound: mpsc::Receiver<Inbound>,
        outbound: mpsc::Sender<Vec<String>>,
    },
    /// A socket still with its keeper.
    Unclaimed(Claim),
    Socket(Box<UmiSocket>),
    /// Closed by the link, or ended.
    Gone,
}

impl From<Pipe> for Held {
    fn from(pipe: Pipe) -> Held {
        Held(match pipe {
            Pipe::Channels { inbound, outbound } => Io::Channels { inbound, outbound },
            Pipe::Socket(claim) => Io::Unclaimed(claim),
        })
    }
}

impl Held {
    /// A connection already let go (what is left where one was moved out).
    pub fn gone() -> Held {
        Held(Io::Gone)
    }

    /// The socket, claimed from its keeper if not yet; `None` once ended.
    async fn socket(&mut self) -> Option<&mut UmiSocket> {
        if let Io::Unclaimed(_) = self.0 {
            let Io::Unclaimed(claim) = std::mem::replace(&mut self.0, Io::Gone) else {
                return None;
            };
            if let Some(socket) = socket::claim(claim).await {
                self.0 = Io::Socket(Box::new(socket));
            }
        }
        match &mut self.0 {
            Io::Socket(socket) => Some(socket),
            _ => None,
        }
    }

    /// Sends `lines` as one batch. On a socket, a write that fails ends the
    /// connection but is no error here. why: as when a relay task wrote
    /// them, the lines were handed over, and the next read finds the
    /// connection gone (and the bot may come back within the grace).
    pub async fn send(
        &mut self,
        lines: &[&str],
        write_timeout: Duration,
    ) -> Result<(), WriteError> {
        if let Io::Channels { outbound, .. } = &mut self.0 {
            let batch = lines.iter().map(|l| (*l).to_owned()).collect();
            let deadline = Instant::now() + write_timeout;
            return match timeout_at(deadline, outbound.send(batch)).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => Err(WriteError::Closed),
                Err(_) => Err(WriteError::Timeout),
            };
        }
        let Some(socket) = self.socket().await else {
            return Err(WriteError::Closed);
        };
        if let Err(why) = socket.send(lines).await {
            self.end(&why.to_string());
        }
        Ok(())
    }

    /// The next line, waiting until `deadline`.
    pub async fn recv(&mut self, deadline: Instant) -> Got {
        if let Io::Channels { inbound, .. } = &mut self.0 {
            return match timeout_at(deadline, inbound.recv()).await {
                Err(_) => Got::Nothing,
                Ok(Some(item)) => Got::Item(item),
                Ok(None) => Got::Ended,
            };
        }
        let Some(socket) = self.socket().await else {
            return Got::Ended;
        };
        match socket.read(deadline).await {
            Ok(Some(item)) => Got::Item(item),
            Ok(None) => Got::Nothing,
            Err(why) => {
                self.end(&why.to_string());
                Got::Ended
            }
        }
    }

    /// A line already received, without waiting.
    pub async fn try_recv(&mut self) -> Got {
        if let Io::Channels { inbound, .. } = &mut self.0 {
            return match inbound.try_recv() {
                Ok(item) => Got::Item(item),
                Err(TryRecvError::Empty) => Got::Nothing,
                Err(TryRecvError::Disconnected) => Got::Ended,
            };
        }
        let Some(socket) = self.socket().await else {
            return Got::Ended;
        };
        match socket.read_ready() {
            Ok(Some(item)) => Got::Item(item),
            Ok(None) => Got::Nothing,
            Err(why) => {
                self.end(&why.to_string());
                Got::Ended
            }
        }
    }

    /// Reads what has arrived on a held socket (into its queue), so that a
    /// connection held between games is seen to end; `false` once ended.
    pub fn poll_open(&mut self) -> bool {
        let Io::Socket(socket) = &mut self.0 else {
            return true;
        };
        match socket.poll_open() {
            Ok(()) => true,
            Err(why) => {
                self.end(&why.to_string());
                false
            }
        }
    }

    /// Closes the connection (the bot is told "closed by the arbiter").
    pub fn close(&mut self) {
        self.end(CLOSED_BY_ARBITER);
    }

    /// Lets the connection go: a held socket is closed with `reason` in its
    /// close frame (the reason its state already has, when that is empty);
    /// the keeper of one not claimed, or the task at the other end of the
    /// channels, closes it when its end is dropped.
    fn end(&mut self, reason: &str) {
        if let Io::Socket(socket) = std::mem::replace(&mut self.0, Io::Gone) {
            socket.close_in_background(reason);
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.close();
    }
}

//! The protocol traffic log (`--debug`): which way a line went, one
//! record of it, and the [`TrafficLog`] that receives the records.

/// Which way a traffic record went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrafficKind {
    /// A line the arbiter wrote to the engine (without its `\n`).
    ToEngine,
    /// A line read from the engine (without `\r\n`).
    FromEngine,
    /// Something that is not a line: start, EOF, an over-long or non-UTF-8 line,
    /// exit, kill.
    Event,
}

/// One record of protocol traffic.
#[derive(Clone, Copy, Debug)]
pub struct TrafficRecord<'a> {
    /// Monotonic time of the event.
    pub at: std::time::Instant,
    /// The spec's name of the engine.
    pub engine: &'a str,
    pub pid: u32,
    pub kind: TrafficKind,
    pub text: &'a str,
}

/// Receives protocol traffic (the `--debug` option). Called inline on the
/// engine's task, so it must be quick and must not block for long.
pub trait TrafficLog: Send + Sync {
    fn record(&self, record: &TrafficRecord<'_>);
}

impl<F> TrafficLog for F
where
    F: Fn(&TrafficRecord<'_>) + Send + Sync,
{
    fn record(&self, record: &TrafficRecord<'_>) {
        self(record)
    }
}

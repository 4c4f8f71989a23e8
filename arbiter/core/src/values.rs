//! Numbers as the command line and the settings strings write them, read
//! alike by the CLI's flags and by the library (a house bot's `slots=`, a
//! drain's seconds): whole numbers in a range and timeouts in seconds, each
//! refused with a message that says what is allowed.

/// The longest timeout, in seconds (about 11.6 days).
pub const MAX_TIMEOUT_SECS: f64 = 1e6;

/// A whole number in `min..=max`, or a message saying what is allowed.
pub fn count_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let n: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number from {min} to {max}"))?;
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be from {min} to {max}"))
    }
}

/// A timeout in seconds: finite, above 0, at most [`MAX_TIMEOUT_SECS`].
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    let allowed = format!("expected seconds above 0 and at most {MAX_TIMEOUT_SECS}");
    let secs: f64 = text.trim().parse().map_err(|_| allowed.clone())?;
    if secs.is_finite() && secs > 0.0 && secs <= MAX_TIMEOUT_SECS {
        Ok(secs)
    } else {
        Err(allowed)
    }
}

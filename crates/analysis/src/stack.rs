//! Stack room for the analyses' recursive walks.
//!
//! Building, evaluating and rendering ACF expressions follows data dependences, control-flow
//! paths and call chains, so its depth grows with the input (a 20k-instruction dependence
//! chain, a long chain of device functions). Every such recursion goes through [`deep`]: when
//! less than [`RED_ZONE`] of the current stack is left, the call continues on a fresh
//! heap-allocated segment, so no input can overflow the stack of whichever thread (the
//! CLI's main thread, a rayon worker, a test's) runs the analysis.

/// Stack that must remain before a recursive step runs in place.
const RED_ZONE: usize = 256 * 1024;
/// Size of each further stack segment.
const SEGMENT: usize = 8 << 20;

/// Runs `f`, on a new stack segment when the current one is nearly used up.
#[inline]
pub(crate) fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

//! Errors that stop a run: faults of the kernel (out-of-bounds, misaligned, divergent or
//! deadlocked barriers, `trap`, a failed `assert`, the instruction budget) with the place
//! they happened, and problems found before running (unsupported instructions).

use crate::observer::{AccessKind, MemSpace};
use std::fmt;

/// Where in the kernel a fault happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultSite {
    /// Kernel name as written in the PTX (mangled).
    pub kernel: String,
    /// The function executing (the kernel or a device function).
    pub function: String,
    pub cta: [u32; 3],
    /// Thread index (`%tid`) of the first offending lane.
    pub thread: [u32; 3],
    pub warp: u32,
    pub lane: u32,
    /// 1-based PTX line of the instruction (0 if unknown).
    pub ptx_line: u32,
    /// The instruction's PTX text.
    pub ptx_text: String,
    /// CUDA source position from `.loc`: (`.file` index, line).
    pub loc: Option<(u32, u32)>,
    /// The CUDA file name of `loc`, once resolved against the module's `.file` table.
    pub src_file: Option<String>,
    /// Where `loc`'s code was inlined: (`.file` index, line), and its file name once resolved.
    pub inlined_at: Option<(u32, u32)>,
    pub inlined_file: Option<String>,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An access outside every allocation of its space.
    OutOfBounds {
        space: MemSpace,
        kind: AccessKind,
        addr: u64,
        size: u32,
        /// Nearest allocation, e.g. "12 bytes past the end of buffer `a` (0x…, 4096 bytes)".
        detail: String,
    },
    Misaligned {
        space: MemSpace,
        kind: AccessKind,
        addr: u64,
        size: u32,
    },
    /// A store to read-only memory (const or kernel parameters).
    ReadOnly {
        space: MemSpace,
        addr: u64,
    },
    /// A generic address in no window.
    BadGenericAddress {
        addr: u64,
    },
    /// Lanes of one warp reached a block-wide barrier while other live lanes did not.
    DivergentBarrier {
        barrier: u32,
        arrived: u32,
        live: u32,
    },
    /// Some warps wait at a barrier that can never complete.
    Deadlock {
        detail: String,
    },
    Trap,
    /// `assert` failed in device code.
    AssertFailed {
        message: String,
        file: String,
        line: u32,
    },
    /// The instruction budget ran out.
    Budget {
        limit: u64,
    },
    /// Local memory (call frames) exhausted.
    StackOverflow {
        bytes: u64,
    },
    /// An indirect call through something that is not a function address, or whose lanes
    /// disagree.
    BadIndirectCall {
        detail: String,
    },
    /// Something valid PTX that the emulator cannot do at run time.
    Unsupported {
        what: String,
    },
}

/// A fault with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub site: Option<Box<FaultSite>>,
}

impl Fault {
    pub fn new(kind: FaultKind) -> Fault {
        Fault { kind, site: None }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind_name = |k: &AccessKind| match k {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic",
            AccessKind::Reduction => "reduction",
        };
        match self {
            FaultKind::OutOfBounds {
                space,
                kind,
                addr,
                size,
                detail,
            } => write!(
                f,
                "out-of-bounds {} {} of {size} bytes at {addr:#x}{}{detail}",
                space.name(),
                kind_name(kind),
                if detail.is_empty() { "" } else { ": " }
            ),
            FaultKind::Misaligned {
                space,
                kind,
                addr,
                size,
            } => write!(
                f,
                "misaligned {} {} of {size} bytes at {addr:#x} (needs {size}-byte alignment)",
                space.name(),
                kind_name(kind)
            ),
            FaultKind::ReadOnly { space, addr } => {
                write!(f, "store to read-only {} memory at {addr:#x}", space.name())
            }
            FaultKind::BadGenericAddress { addr } => {
                write!(f, "generic address {addr:#x} is in no memory space")
            }
            FaultKind::DivergentBarrier {
                barrier,
                arrived,
                live,
            } => write!(
                f,
                "divergent barrier: lanes {arrived:#010x} of the warp reached barrier {barrier} \
                 while lanes {:#010x} are elsewhere (live lanes {live:#010x})",
                live & !arrived
            ),
            FaultKind::Deadlock { detail } => write!(f, "barrier deadlock: {detail}"),
            FaultKind::Trap => write!(f, "trap executed"),
            FaultKind::AssertFailed {
                message,
                file,
                line,
            } => write!(f, "assertion `{message}` failed at {file}:{line}"),
            FaultKind::Budget { limit } => write!(
                f,
                "instruction budget of {limit} thread-instructions exhausted \
                 (raise it with --max-instructions)"
            ),
            FaultKind::StackOverflow { bytes } => {
                write!(
                    f,
                    "local memory exhausted ({bytes} bytes per thread): call stack overflow"
                )
            }
            FaultKind::BadIndirectCall { detail } => write!(f, "bad indirect call: {detail}"),
            FaultKind::Unsupported { what } => write!(f, "unsupported at run time: {what}"),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some(s) = &self.site {
            write!(
                f,
                "\n  in kernel `{}`, block ({},{},{}), thread ({},{},{}) (warp {}, lane {})",
                s.kernel,
                s.cta[0],
                s.cta[1],
                s.cta[2],
                s.thread[0],
                s.thread[1],
                s.thread[2],
                s.warp,
                s.lane
            )?;
            if s.function != s.kernel {
                write!(f, "\n  in device function `{}`", s.function)?;
            }
            if s.ptx_line > 0 {
                write!(f, "\n  at PTX line {}: {}", s.ptx_line, s.ptx_text)?;
            }
            match (&s.src_file, s.loc) {
                (Some(file), Some((_, line))) => write!(f, "\n  at {file}:{line}")?,
                (None, Some((idx, line))) => write!(f, "\n  at .file {idx} line {line}")?,
                _ => {}
            }
            match (&s.inlined_file, s.inlined_at) {
                (Some(file), Some((_, line))) => write!(f, ", inlined at {file}:{line}")?,
                (None, Some((idx, line))) => write!(f, ", inlined at .file {idx} line {line}")?,
                _ => {}
            }
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}

/// An instruction or construct the translator cannot handle, found before running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateError {
    pub function: String,
    pub ptx_line: u32,
    pub ptx_text: String,
    pub message: String,
}

impl fmt::Display for TranslateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if self.ptx_line > 0 {
            write!(
                f,
                "\n  in `{}` at PTX line {}: {}",
                self.function, self.ptx_line, self.ptx_text
            )?;
        } else {
            write!(f, "\n  in `{}`", self.function)?;
        }
        Ok(())
    }
}

impl std::error::Error for TranslateError {}

//! What ptxas makes of a module.
//!
//! The static checks reason about PTX, but the hardware runs SASS, and Nsight Compute counts a
//! *divergent branch* only where a SASS branch instruction exists: ptxas if-converts short
//! bodies into predicated instructions, turns `if (i >= n) return;` into a predicated `EXIT`,
//! and adds branches of its own (the slow path of an IEEE division). Whether it keeps a branch
//! is its own heuristic, which no rule read off PTX reproduces exactly. When ptxas is at hand (a
//! CUDA toolkit, or pip's `nvidia-cuda-nvcc`), this crate asks it: [`compile`] builds the module
//! for `sm_90` with line information and [`cubin::read`] reads the functions, instructions and
//! CUDA lines back from the cubin (what `nvdisasm -g -c` prints, which [`listing::parse`] reads
//! for the cross-check [`compile_with_nvdisasm`]); [`LineBranches`] then says, per function and
//! CUDA source line, how many SASS instructions ptxas placed there and how many of them are
//! branches whose lanes can split.

pub mod cache;
pub mod compile;
pub mod cubin;
pub mod flow;
pub mod listing;
pub mod ptx_lines;

pub use compile::{
    SassError, Toolchain, compile, compile_verbose, compile_with_nvdisasm, with_operands,
};
pub use cubin::{CubinError, read as read_cubin};
pub use listing::{Guard, Listing, SassFunction, SassInst, parse};
pub use ptx_lines::{PtxLineSass, compile_by_ptx_line};

use rustc_hash::FxHashMap;

/// What the SASS holds at one CUDA source line of one function.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineSass {
    /// SASS instructions attributed to the line.
    pub instructions: u32,
    /// Of those, branches that lanes of a warp can take apart ([`SassInst::splits_lanes`]).
    pub splitting_branches: u32,
}

/// The answer to "did ptxas keep a branch at this line?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchAtLine {
    /// At least one SASS branch whose lanes can split is attributed to the line.
    Kept,
    /// The line has SASS instructions, none of them such a branch: ptxas predicated the code,
    /// selected between values, or made the branch uniform.
    None,
    /// No SASS instruction carries the line (or the function is not in the listing): the SASS
    /// says nothing about it.
    Unknown,
}

/// Per (function, CUDA file, line): what the SASS holds there.
#[derive(Debug, Clone, Default)]
pub struct LineBranches {
    /// The tools and target that produced the listing, for the report (`ptxas 13.0.88, sm_90`).
    pub produced_by: String,
    files: Vec<String>,
    file_index: FxHashMap<String, u32>,
    functions: FxHashMap<String, FxHashMap<(u32, u32), LineSass>>,
}

impl LineBranches {
    /// Builds the table of a listing.
    pub fn new(listing: &Listing, produced_by: impl Into<String>) -> LineBranches {
        let mut t = LineBranches {
            produced_by: produced_by.into(),
            files: listing.files.clone(),
            ..LineBranches::default()
        };
        for (i, f) in listing.files.iter().enumerate() {
            t.file_index.insert(f.clone(), i as u32);
        }
        for func in &listing.functions {
            let lines = t.functions.entry(func.name.clone()).or_default();
            for inst in &func.instructions {
                let Some((file, line)) = inst.source else {
                    continue;
                };
                let e = lines.entry((file, line)).or_default();
                e.instructions += 1;
                e.splitting_branches += u32::from(inst.splits_lanes());
            }
        }
        t
    }

    /// What the SASS of `function` holds at `file:line` (`file` as the PTX `.file` directive
    /// names it).
    pub fn line(&self, function: &str, file: &str, line: u32) -> Option<LineSass> {
        let fi = *self.file_index.get(file)?;
        self.functions.get(function)?.get(&(fi, line)).copied()
    }

    /// Whether ptxas kept a lane-splitting branch at `file:line` in any of `functions` (a
    /// kernel and the device function the line belongs to, when ptxas did not inline it).
    pub fn branch_at(&self, functions: &[&str], file: &str, line: u32) -> BranchAtLine {
        let mut seen = false;
        for f in functions {
            if let Some(l) = self.line(f, file, line) {
                if l.splitting_branches > 0 {
                    return BranchAtLine::Kept;
                }
                seen |= l.instructions > 0;
            }
        }
        if seen {
            BranchAtLine::None
        } else {
            BranchAtLine::Unknown
        }
    }

    /// Whether the listing has a function of this name.
    pub fn has_function(&self, function: &str) -> bool {
        self.functions.contains_key(function)
    }

    /// The source files the listing names, by index.
    pub fn files(&self) -> &[String] {
        &self.files
    }
}

/// A listing that may still be in the making: the command line starts ptxas (and the reading of
/// its cubin) on a thread while the analysis runs, and the analysis waits for the answer only
/// when it words its branch findings. Cloning shares the one answer.
#[derive(Debug, Clone, Default)]
pub struct SassHandle(std::sync::Arc<std::sync::OnceLock<Result<LineBranches, String>>>);

impl SassHandle {
    /// An empty handle, to be [`set`](Self::set) once.
    pub fn new() -> SassHandle {
        SassHandle::default()
    }

    /// A handle holding `answer` already.
    pub fn ready(answer: Result<LineBranches, String>) -> SassHandle {
        let h = SassHandle::new();
        h.set(answer);
        h
    }

    /// Gives the answer (a second call is ignored).
    pub fn set(&self, answer: Result<LineBranches, String>) {
        let _ = self.0.set(answer);
    }

    /// Blocks until the answer is there. Whoever made the handle must [`set`](Self::set) it on
    /// every path, errors included.
    pub fn wait(&self) -> &Result<LineBranches, String> {
        self.0.wait()
    }

    /// The answer, if it is there.
    pub fn get(&self) -> Option<&Result<LineBranches, String>> {
        self.0.get()
    }
}

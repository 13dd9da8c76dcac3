//! # warpscope-ir
//!
//! The one program representation that warpscope's static analyses and its emulator share.
//! A PTX module is lowered ([`lower_module`]) into [`Function`]s of basic blocks whose
//! instructions keep the front end's typed opcode and modifiers but have every name resolved
//! to an entity reference ([`Reg`], [`Block`], [`GlobalId`], ...), plus the `.loc` source
//! position in effect.
//!
//! Structural analyses live beside the IR, never inside it, each with the same shape
//! (`with_cfg`/`compute` constructors returning a side table):
//! [`ControlFlowGraph`], [`DominatorTree`], [`PostDominatorTree`] (whose immediate
//! post-dominator of a branch is its reconvergence point), [`LoopAnalysis`], [`DefUse`]
//! (reaching definitions: PTX registers are not SSA) and [`CallGraph`].
//! [`FunctionAnalyses`] computes them all for one function.

pub mod callgraph;
pub mod cfg;
pub mod control;
pub mod defuse;
pub mod dominators;
pub mod effects;
pub mod entities;
pub mod function;
pub mod liveness;
pub mod loops;
pub mod lower;
pub mod names;
pub mod print;

pub use callgraph::{CallGraph, CallSite};
pub use cfg::ControlFlowGraph;
pub use defuse::{DefSite, DefUse, Use};
pub use dominators::{DominatorTree, PostDominatorTree};
pub use entities::{Block, Def, FuncId, GlobalId, Inst, LocalId, Loop, Reg};
pub use function::{
    AddrBase, BlockData, Function, Guard, InitData, InstData, Module, Operand, Param, Prototype,
    RegData, RegName, Reloc, SrcLoc, Variable,
};
pub use loops::{LoopAnalysis, LoopData};
pub use lower::{LowerError, lower_module};
pub use print::{cfg_dot, inst_to_string, print_function, print_module};

/// The structural analyses of one function, computed together.
#[derive(Debug, Clone, Default)]
pub struct FunctionAnalyses {
    pub cfg: ControlFlowGraph,
    pub domtree: DominatorTree,
    pub postdom: PostDominatorTree,
    pub loops: LoopAnalysis,
    pub defuse: DefUse,
}

impl FunctionAnalyses {
    /// Computes CFG, dominators, post-dominators, loops and reaching definitions of `func`.
    pub fn compute(func: &Function) -> FunctionAnalyses {
        let cfg = ControlFlowGraph::with_function(func);
        let domtree = DominatorTree::with_cfg(&cfg);
        let postdom = PostDominatorTree::with_cfg(&cfg);
        let loops = LoopAnalysis::with_cfg(&cfg, &domtree);
        let defuse = DefUse::compute(func, &cfg);
        FunctionAnalyses {
            cfg,
            domtree,
            postdom,
            loops,
            defuse,
        }
    }
}

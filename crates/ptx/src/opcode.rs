//! PTX instruction opcodes: one variant per instruction name.
//!
//! Compound mnemonics whose later parts are not modifiers (`bar.warp.sync`,
//! `cp.async.wait_group`, `mbarrier.try_wait`, `wmma.load.a`, ...) are single opcodes;
//! the parser matches them longest-first (see [`Opcode::from_mnemonic`]).

macro_rules! opcodes {
    ($($(#[$m:meta])* $var:ident = $s:literal,)+) => {
        /// A PTX instruction name (PTX ISA §9.7 "Instructions").
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode { $($(#[$m])* $var),+ }

        impl Opcode {
            /// All opcodes, in declaration order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$var),+];

            /// The full PTX mnemonic (dotted for compound names, e.g. `bar.warp.sync`).
            #[inline]
            pub const fn name(self) -> &'static str {
                match self { $(Opcode::$var => $s),+ }
            }

            /// Looks up an exact mnemonic (compound names include their dots).
            #[inline]
            pub fn from_mnemonic(s: &str) -> Option<Opcode> {
                match s { $($s => Some(Opcode::$var),)+ _ => None }
            }
        }
    };
}

opcodes! {
    // Integer arithmetic (§9.7.1)
    Add = "add", Sub = "sub", Mul = "mul", Mad = "mad", Mul24 = "mul24", Mad24 = "mad24",
    Sad = "sad", Div = "div", Rem = "rem", Abs = "abs", Neg = "neg", Min = "min", Max = "max",
    Popc = "popc", Clz = "clz", Bfind = "bfind", Fns = "fns", Brev = "brev", Bfe = "bfe",
    Bfi = "bfi", Bmsk = "bmsk", Szext = "szext", Dp4a = "dp4a", Dp2a = "dp2a",
    // Extended-precision integer arithmetic (§9.7.2)
    Addc = "addc", Subc = "subc", Madc = "madc",
    // Floating point (§9.7.3)
    Testp = "testp", Copysign = "copysign", Fma = "fma", Rcp = "rcp", Sqrt = "sqrt",
    Rsqrt = "rsqrt", Sin = "sin", Cos = "cos", Lg2 = "lg2", Ex2 = "ex2", Tanh = "tanh",
    // Comparison and selection (§9.7.7)
    Set = "set", Setp = "setp", Selp = "selp", Slct = "slct",
    // Logic and shift (§9.7.8)
    And = "and", Or = "or", Xor = "xor", Not = "not", Cnot = "cnot", Lop3 = "lop3",
    Shf = "shf", Shl = "shl", Shr = "shr", Prmt = "prmt",
    // Data movement and conversion (§9.7.9)
    Mov = "mov", Shfl = "shfl", Ld = "ld", Ldu = "ldu", St = "st", StAsync = "st.async",
    StBulk = "st.bulk", Prefetch = "prefetch", Prefetchu = "prefetchu", Isspacep = "isspacep",
    Cvta = "cvta", Cvt = "cvt", CvtPack = "cvt.pack", Createpolicy = "createpolicy",
    Discard = "discard", Applypriority = "applypriority",
    CpAsync = "cp.async", CpAsyncCommitGroup = "cp.async.commit_group",
    CpAsyncWaitGroup = "cp.async.wait_group", CpAsyncWaitAll = "cp.async.wait_all",
    CpAsyncMbarrierArrive = "cp.async.mbarrier.arrive",
    CpAsyncBulk = "cp.async.bulk", CpAsyncBulkTensor = "cp.async.bulk.tensor",
    CpAsyncBulkCommitGroup = "cp.async.bulk.commit_group",
    CpAsyncBulkWaitGroup = "cp.async.bulk.wait_group",
    CpAsyncBulkPrefetch = "cp.async.bulk.prefetch",
    CpAsyncBulkPrefetchTensor = "cp.async.bulk.prefetch.tensor",
    CpReduceAsyncBulk = "cp.reduce.async.bulk",
    CpReduceAsyncBulkTensor = "cp.reduce.async.bulk.tensor",
    TensormapReplace = "tensormap.replace", TensormapCpFenceproxy = "tensormap.cp_fenceproxy",
    // Texture and surface (§9.7.10, §9.7.11)
    Tex = "tex", Tld4 = "tld4", Txq = "txq", Istypep = "istypep", Suld = "suld", Sust = "sust",
    Sured = "sured", Suq = "suq",
    // Control flow (§9.7.12)
    Bra = "bra", BrxIdx = "brx.idx", Call = "call", Ret = "ret", Exit = "exit",
    // Parallel synchronization and communication (§9.7.13)
    Bar = "bar", Barrier = "barrier", BarWarpSync = "bar.warp.sync",
    BarrierClusterArrive = "barrier.cluster.arrive", BarrierClusterWait = "barrier.cluster.wait",
    Membar = "membar", Fence = "fence", Atom = "atom", Red = "red", RedAsync = "red.async",
    Vote = "vote", Match = "match", Activemask = "activemask", Redux = "redux",
    GriddepcontrolLaunchDependents = "griddepcontrol.launch_dependents",
    GriddepcontrolWait = "griddepcontrol.wait", Elect = "elect",
    MbarrierInit = "mbarrier.init", MbarrierInval = "mbarrier.inval",
    MbarrierArrive = "mbarrier.arrive", MbarrierArriveDrop = "mbarrier.arrive_drop",
    MbarrierExpectTx = "mbarrier.expect_tx", MbarrierCompleteTx = "mbarrier.complete_tx",
    MbarrierTestWait = "mbarrier.test_wait", MbarrierTryWait = "mbarrier.try_wait",
    MbarrierPendingCount = "mbarrier.pending_count",
    MultimemLdReduce = "multimem.ld_reduce", MultimemSt = "multimem.st",
    MultimemRed = "multimem.red",
    // Warp-level matrix (§9.7.14) and warpgroup-level matrix (§9.7.15)
    WmmaLoadA = "wmma.load.a", WmmaLoadB = "wmma.load.b", WmmaLoadC = "wmma.load.c",
    WmmaStoreD = "wmma.store.d", WmmaMma = "wmma.mma", Mma = "mma", MmaSp = "mma.sp",
    MmaSpOrdered = "mma.sp::ordered_metadata",
    Ldmatrix = "ldmatrix", Stmatrix = "stmatrix", Movmatrix = "movmatrix",
    WgmmaFence = "wgmma.fence", WgmmaCommitGroup = "wgmma.commit_group",
    WgmmaWaitGroup = "wgmma.wait_group", WgmmaMmaAsync = "wgmma.mma_async",
    WgmmaMmaAsyncSp = "wgmma.mma_async.sp",
    // Video instructions (§9.7.16): scalar and SIMD
    Vadd = "vadd", Vsub = "vsub", Vabsdiff = "vabsdiff", Vmin = "vmin", Vmax = "vmax",
    Vshl = "vshl", Vshr = "vshr", Vmad = "vmad", Vset = "vset",
    Vadd2 = "vadd2", Vsub2 = "vsub2", Vavrg2 = "vavrg2", Vabsdiff2 = "vabsdiff2",
    Vmin2 = "vmin2", Vmax2 = "vmax2", Vset2 = "vset2",
    Vadd4 = "vadd4", Vsub4 = "vsub4", Vavrg4 = "vavrg4", Vabsdiff4 = "vabsdiff4",
    Vmin4 = "vmin4", Vmax4 = "vmax4", Vset4 = "vset4",
    // Stack manipulation (§9.7.17)
    Alloca = "alloca", Stacksave = "stacksave", Stackrestore = "stackrestore",
    // Misc (§9.7.18, §9.7.19)
    Setmaxnreg = "setmaxnreg", Getctarank = "getctarank", Mapa = "mapa",
    Nanosleep = "nanosleep", Pmevent = "pmevent", Trap = "trap", Brkpt = "brkpt",
}

impl Opcode {
    /// Heads of compound mnemonics: only for these does the parser try to glue
    /// following `.xxx` parts onto the name.
    pub fn has_compounds(head: &str) -> bool {
        matches!(
            head,
            "st" | "cvt"
                | "cp"
                | "tensormap"
                | "brx"
                | "bar"
                | "barrier"
                | "red"
                | "mbarrier"
                | "multimem"
                | "wmma"
                | "mma"
                | "wgmma"
                | "griddepcontrol"
        )
    }

    /// Opcodes that transfer control (bra, brx.idx, call, ret, exit, trap).
    pub const fn is_control_flow(self) -> bool {
        matches!(
            self,
            Opcode::Bra | Opcode::BrxIdx | Opcode::Call | Opcode::Ret | Opcode::Exit | Opcode::Trap
        )
    }

    /// Opcodes that end a basic block unconditionally when unguarded.
    pub const fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Bra | Opcode::BrxIdx | Opcode::Ret | Opcode::Exit | Opcode::Trap
        )
    }

    /// Opcodes that access memory through an address operand.
    pub const fn is_memory(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Ld | Ldu
                | St
                | StAsync
                | StBulk
                | Atom
                | Red
                | RedAsync
                | Prefetch
                | Prefetchu
                | CpAsync
                | CpAsyncBulk
                | CpAsyncBulkTensor
                | CpReduceAsyncBulk
                | CpReduceAsyncBulkTensor
                | Ldmatrix
                | Stmatrix
                | WmmaLoadA
                | WmmaLoadB
                | WmmaLoadC
                | WmmaStoreD
                | MbarrierInit
                | MbarrierArrive
                | MbarrierArriveDrop
                | MbarrierTestWait
                | MbarrierTryWait
                | MbarrierExpectTx
                | MbarrierCompleteTx
                | MbarrierInval
                | MultimemLdReduce
                | MultimemSt
                | MultimemRed
                | Tex
                | Tld4
                | Suld
                | Sust
                | Sured
                | Discard
                | Applypriority
                | CpAsyncBulkPrefetch
                | CpAsyncBulkPrefetchTensor
        )
    }

    /// Warp/block-synchronizing opcodes.
    pub const fn is_barrier(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Bar | Barrier | BarWarpSync | BarrierClusterArrive | BarrierClusterWait
        )
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

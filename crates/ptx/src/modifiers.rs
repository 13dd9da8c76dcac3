//! Typed instruction modifiers (the `.xxx` suffixes of a mnemonic).
//!
//! Everything a mnemonic suffix can say is stored in [`Modifiers`], a small
//! `Copy` struct of optional typed fields plus a bit set of boolean [`Flags`].
//! Section numbers refer to the PTX ISA 8.x/9.0 reference ("PTX ISA §n").

/// Declares a keyword enum: `as_str` gives the PTX spelling (without the dot),
/// `from_str` parses it.
macro_rules! kw_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            /// All variants, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// PTX spelling, without the leading dot.
            #[inline]
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }
            /// Parses the PTX spelling (without the leading dot).
            #[inline]
            #[allow(clippy::should_implement_trait)]
            pub fn from_str(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)+ _ => None }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use kw_enum;

kw_enum! {
    /// Fundamental, packed and opaque types (PTX ISA §5.2 "Types", §5.2.5 packed data types,
    /// §5.3 texture/sampler/surface types).
    Type {
        S8 = "s8", S16 = "s16", S32 = "s32", S64 = "s64",
        U8 = "u8", U16 = "u16", U32 = "u32", U64 = "u64",
        B8 = "b8", B16 = "b16", B32 = "b32", B64 = "b64", B128 = "b128",
        F16 = "f16", F16x2 = "f16x2", Bf16 = "bf16", Bf16x2 = "bf16x2",
        Tf32 = "tf32", F32 = "f32", F32x2 = "f32x2", F64 = "f64",
        E4m3 = "e4m3", E5m2 = "e5m2", E4m3x2 = "e4m3x2", E5m2x2 = "e5m2x2",
        E2m1 = "e2m1", E2m1x2 = "e2m1x2", E2m3 = "e2m3", E2m3x2 = "e2m3x2",
        E3m2 = "e3m2", E3m2x2 = "e3m2x2", Ue8m0 = "ue8m0", Ue8m0x2 = "ue8m0x2",
        S16x2 = "s16x2", U16x2 = "u16x2",
        S4 = "s4", U4 = "u4", B1 = "b1",
        Pred = "pred",
        TexRef = "texref", SamplerRef = "samplerref", SurfRef = "surfref",
    }
}

impl Type {
    /// Size in bytes of one value (packed types count their whole container;
    /// sub-byte types round up to 1; opaque handles are 8).
    pub const fn size_bytes(self) -> u32 {
        use Type::*;
        match self {
            S8 | U8 | B8 | E4m3 | E5m2 | E2m1 | E2m3 | E3m2 | Ue8m0 | S4 | U4 | B1 | Pred => 1,
            S16 | U16 | B16 | F16 | Bf16 | E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2 | Ue8m0x2 => {
                2
            }
            S32 | U32 | B32 | F16x2 | Bf16x2 | Tf32 | F32 | S16x2 | U16x2 => 4,
            S64 | U64 | B64 | F64 | F32x2 | TexRef | SamplerRef | SurfRef => 8,
            B128 => 16,
        }
    }
    /// True for signed integer types.
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            Type::S8 | Type::S16 | Type::S32 | Type::S64 | Type::S16x2 | Type::S4
        )
    }
    /// True for floating-point types (including packed and narrow float formats).
    pub const fn is_float(self) -> bool {
        use Type::*;
        matches!(
            self,
            F16 | F16x2
                | Bf16
                | Bf16x2
                | Tf32
                | F32
                | F32x2
                | F64
                | E4m3
                | E5m2
                | E4m3x2
                | E5m2x2
                | E2m1
                | E2m1x2
                | E2m3
                | E2m3x2
                | E3m2
                | E3m2x2
                | Ue8m0
                | Ue8m0x2
        )
    }
}

kw_enum! {
    /// State spaces (PTX ISA §5.1). `Generic` is never written; it is the absence of a space
    /// on ld/st/atom and is only produced by tools, not by the parser.
    StateSpace {
        Reg = "reg", Sreg = "sreg", Const = "const", Global = "global", Local = "local",
        Param = "param", ParamEntry = "param::entry", ParamFunc = "param::func",
        Shared = "shared", SharedCta = "shared::cta", SharedCluster = "shared::cluster",
        Tex = "tex", Generic = "generic",
    }
}

impl StateSpace {
    /// True for `.shared`, `.shared::cta` and `.shared::cluster`.
    pub const fn is_shared(self) -> bool {
        matches!(
            self,
            StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster
        )
    }
    /// True for `.param`, `.param::entry` and `.param::func`.
    pub const fn is_param(self) -> bool {
        matches!(
            self,
            StateSpace::Param | StateSpace::ParamEntry | StateSpace::ParamFunc
        )
    }
}

kw_enum! {
    /// Rounding modifiers (PTX ISA §9.7.3 floating-point rounding, §9.7.9.21 cvt integer rounding).
    Rounding {
        Rn = "rn", Rz = "rz", Rm = "rm", Rp = "rp", Rna = "rna", Rs = "rs",
        Rni = "rni", Rzi = "rzi", Rmi = "rmi", Rpi = "rpi",
    }
}

kw_enum! {
    /// Comparison operators of setp/set/slct (PTX ISA §9.7.7 comparison and selection,
    /// table "Operators for signed/unsigned/float comparisons").
    CmpOp {
        Eq = "eq", Ne = "ne", Lt = "lt", Le = "le", Gt = "gt", Ge = "ge",
        Lo = "lo", Ls = "ls", Hi = "hi", Hs = "hs",
        Equ = "equ", Neu = "neu", Ltu = "ltu", Leu = "leu", Gtu = "gtu", Geu = "geu",
        Num = "num", Nan = "nan",
    }
}

kw_enum! {
    /// Boolean combining operator of setp/set (`setp.lt.and.s32`) (PTX ISA §9.7.7.4).
    BoolOp { And = "and", Or = "or", Xor = "xor" }
}

kw_enum! {
    /// Cache operators of ld/st/prefetch/cp.async (PTX ISA §9.7.9.1 "Cache operators").
    CacheOp { Ca = "ca", Cg = "cg", Cs = "cs", Lu = "lu", Cv = "cv", Wb = "wb", Wt = "wt" }
}

kw_enum! {
    /// L1 eviction priority (`.L1::evict_*`, `.L1::no_allocate`) of ld/st (PTX ISA §9.7.9.8).
    L1Evict {
        Normal = "L1::evict_normal", Unchanged = "L1::evict_unchanged", First = "L1::evict_first",
        Last = "L1::evict_last", NoAllocate = "L1::no_allocate",
    }
}

kw_enum! {
    /// L2 eviction priority (`.L2::evict_*`) of ld/st/prefetch/createpolicy (PTX ISA §9.7.9.8, §9.7.9.18).
    L2Evict {
        Normal = "L2::evict_normal", First = "L2::evict_first", Last = "L2::evict_last",
        Unchanged = "L2::evict_unchanged",
    }
}

kw_enum! {
    /// L2 prefetch size hint of ld/cp.async (`.L2::64B` ...) (PTX ISA §9.7.9.8).
    L2Prefetch { B64 = "L2::64B", B128 = "L2::128B", B256 = "L2::256B" }
}

kw_enum! {
    /// Cache level operand of prefetch/prefetchu/discard/applypriority (PTX ISA §9.7.9.15).
    CacheLevel { L1 = "L1", L2 = "L2" }
}

kw_enum! {
    /// Memory consistency scope (PTX ISA §8.5 "Scope"). `membar.gl` is stored as `Gpu`.
    Scope { Cta = "cta", Cluster = "cluster", Gpu = "gpu", Sys = "sys" }
}

kw_enum! {
    /// Memory-ordering semantics (PTX ISA §8.4 "Operation types", §9.7.9.8 ld `.sem`).
    MemOrder {
        Weak = "weak", Relaxed = "relaxed", Acquire = "acquire", Release = "release",
        AcqRel = "acq_rel", Sc = "sc", Volatile = "volatile", Mmio = "mmio",
    }
}

kw_enum! {
    /// Atomic / reduction operation of atom, red, redux, bar.red, cp.reduce.async.bulk,
    /// multimem (PTX ISA §9.7.13.5 atom, §9.7.13.7 redux.sync, §9.7.13.1 bar.red `.popc`).
    AtomOp {
        Add = "add", Min = "min", Max = "max", Inc = "inc", Dec = "dec",
        And = "and", Or = "or", Xor = "xor", Exch = "exch", Cas = "cas", Popc = "popc",
    }
}

kw_enum! {
    /// shfl mode (PTX ISA §9.7.13.9 shfl.sync).
    ShflMode { Up = "up", Down = "down", Bfly = "bfly", Idx = "idx" }
}

kw_enum! {
    /// vote / match mode (PTX ISA §9.7.13.11 vote.sync, §9.7.13.12 match.sync).
    VoteMode { All = "all", Any = "any", Uni = "uni", Ballot = "ballot" }
}

kw_enum! {
    /// Integer multiply result selection of mul/mad/mul24/mad24/dp2a (PTX ISA §9.7.1.3).
    MulMode { Lo = "lo", Hi = "hi", Wide = "wide" }
}

kw_enum! {
    /// testp operator (PTX ISA §9.7.3.2 testp).
    TestpOp {
        Finite = "finite", Infinite = "infinite", Number = "number", NotANumber = "notanumber",
        Normal = "normal", Subnormal = "subnormal",
    }
}

kw_enum! {
    /// prmt mode (PTX ISA §9.7.8.7 prmt).
    PrmtMode { F4e = "f4e", B4e = "b4e", Rc8 = "rc8", Ecl = "ecl", Ecr = "ecr", Rc16 = "rc16" }
}

kw_enum! {
    /// Matrix layout of mma/wmma/ldmatrix operands (PTX ISA §9.7.14 warp-level matrix instructions).
    Layout { Row = "row", Col = "col" }
}

kw_enum! {
    /// Texture/surface/tensor geometry (PTX ISA §9.7.10 texture, §9.7.9.25 cp.async.bulk.tensor).
    Geom {
        D1 = "1d", D2 = "2d", D3 = "3d", D4 = "4d", D5 = "5d", A1d = "a1d", A2d = "a2d",
        Cube = "cube", ACube = "acube", D2ms = "2dms", A2dms = "a2dms",
    }
}

kw_enum! {
    /// Texture gather component of tld4 (`.r .g .b .a`) (PTX ISA §9.7.10.4).
    Component { R = "r", G = "g", B = "b", A = "a" }
}

kw_enum! {
    /// Surface out-of-bounds mode of suld/sust (PTX ISA §9.7.11).
    ClampMode { Trap = "trap", Clamp = "clamp", Zero = "zero" }
}

kw_enum! {
    /// Matrix fragment count of ldmatrix/stmatrix/movmatrix (`.x1 .x2 .x4`) and the
    /// `.num` of other matrix ops (PTX ISA §9.7.14.5.15 ldmatrix).
    MatrixCount { X1 = "x1", X2 = "x2", X4 = "x4", X8 = "x8", X16 = "x16", X32 = "x32", X64 = "x64", X128 = "x128" }
}

kw_enum! {
    /// Tensor copy load mode of cp.async.bulk.tensor (`.tile`, `.im2col`...) (PTX ISA §9.7.9.25.5).
    LoadMode { Tile = "tile", Im2col = "im2col", TileGather4 = "tile::gather4", TileScatter4 = "tile::scatter4", Im2colW = "im2col::w", Im2colW128 = "im2col::w::128", Im2colNoOffs = "im2col_no_offs" }
}

/// Matrix shape `.mMnNkK` of mma/wmma/wgmma/ldmatrix (`.m8n8` has `k == 0`)
/// (PTX ISA §9.7.14 "Matrix shape").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub m: u16,
    pub n: u16,
    pub k: u16,
}

impl Shape {
    /// Parses `m16n8k16` / `m8n8` (no leading dot).
    pub fn parse(s: &str) -> Option<Shape> {
        let rest = s.strip_prefix('m')?;
        let npos = rest.find('n')?;
        let m: u16 = rest.get(..npos)?.parse().ok()?;
        let rest = rest.get(npos + 1..)?;
        let (n, k) = match rest.find('k') {
            Some(kp) => (
                rest.get(..kp)?.parse().ok()?,
                rest.get(kp + 1..)?.parse().ok()?,
            ),
            None => (rest.parse().ok()?, 0),
        };
        if m == 0 || n == 0 {
            return None;
        }
        Some(Shape { m, n, k })
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.k == 0 {
            write!(f, "m{}n{}", self.m, self.n)
        } else {
            write!(f, "m{}n{}k{}", self.m, self.n, self.k)
        }
    }
}

/// Boolean modifiers, one bit each. The PTX spelling of each flag is in [`Flags::NAMES`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u64);

macro_rules! flags {
    ($($(#[$m:meta])* $name:ident = $bit:literal, $s:literal;)+) => {
        impl Flags {
            $($(#[$m])* pub const $name: Flags = Flags(1u64 << $bit);)+
            /// `(flag, PTX spelling without the dot)`, in canonical print order.
            pub const NAMES: &'static [(Flags, &'static str)] = &[$((Flags::$name, $s)),+];
        }
    };
}

flags! {
    /// `.ftz` flush subnormals to zero (§9.7.3).
    FTZ = 0, "ftz";
    /// `.sat` saturate (§9.7.1, §9.7.3).
    SAT = 1, "sat";
    /// `.approx` (div/rcp/sqrt/sin/cos/ex2/lg2/tanh, §9.7.3).
    APPROX = 2, "approx";
    /// `.full` (div.full.f32, §9.7.3.8).
    FULL = 3, "full";
    /// `.uni` non-divergent branch/call/ret (§9.7.12).
    UNI = 4, "uni";
    /// `.sync` (shfl/vote/match/redux/bar/barrier/mma/wmma/..., §9.7.13).
    SYNC = 5, "sync";
    /// `.aligned` (barrier, mma, wgmma, ..., §9.7.13.1).
    ALIGNED = 6, "aligned";
    /// `.cc` carry-out (add.cc/sub.cc/mad.cc, §9.7.2).
    CC = 7, "cc";
    /// `.relu` (fma/min/max/cvt, §9.7.3, §9.7.4).
    RELU = 8, "relu";
    /// `.NaN` propagate NaN (min/max, §9.7.3.10).
    NAN = 9, "NaN";
    /// `.xorsign` (min/max, §9.7.3.10).
    XORSIGN = 10, "xorsign";
    /// `.abs` (min/max.xorsign.abs, redux.abs, §9.7.3.10).
    ABS = 11, "abs";
    /// `.shiftamt` (bfind, §9.7.1.16).
    SHIFTAMT = 12, "shiftamt";
    /// `.wrap` (shf, §9.7.8.6).
    WRAP = 13, "wrap";
    /// `.clamp` (shf, §9.7.8.6).
    CLAMP = 14, "clamp";
    /// `.l` left (shf, §9.7.8.6).
    LEFT = 15, "l";
    /// `.r` right (shf, §9.7.8.6).
    RIGHT = 16, "r";
    /// `.nc` non-coherent (ld.global.nc, §9.7.9.9).
    NC = 17, "nc";
    /// `.to` (cvta.to, §9.7.9.17).
    TO = 18, "to";
    /// `.arrive` (bar/barrier/barrier.cluster, §9.7.13.1).
    ARRIVE = 19, "arrive";
    /// `.red` (bar.red/barrier.red, §9.7.13.1).
    RED = 20, "red";
    /// `.satfinite` (cvt/mma, §9.7.9.21).
    SATFINITE = 21, "satfinite";
    /// `.noftz` (atom.add.noftz.f16, §9.7.13.5).
    NOFTZ = 22, "noftz";
    /// `.L2::cache_hint` (ld/st/atom/red/cp.async, §9.7.9.8).
    L2_CACHE_HINT = 23, "L2::cache_hint";
    /// `.trans` (ldmatrix/stmatrix/movmatrix, §9.7.14.5.15).
    TRANS = 24, "trans";
    /// `.proxy` (fence.proxy, §9.7.13.4).
    PROXY = 25, "proxy";
    /// `.async` (fence.proxy.async, §9.7.13.4).
    ASYNC = 26, "async";
    /// `.alias` (fence.proxy.alias, §9.7.13.4).
    ALIAS = 27, "alias";
    /// `.mbarrier_init` (fence.mbarrier_init, §9.7.13.4).
    MBARRIER_INIT = 28, "mbarrier_init";
    /// `.tensormap::generic` (fence.proxy.tensormap::generic, §9.7.13.4).
    TENSORMAP_GENERIC = 29, "tensormap::generic";
    /// `.expect_tx` (mbarrier.arrive.expect_tx, §9.7.13.15).
    EXPECT_TX = 30, "expect_tx";
    /// `.parity` (mbarrier.test_wait/try_wait.parity, §9.7.13.15.16).
    PARITY = 31, "parity";
    /// `.noinc` (cp.async.mbarrier.arrive.noinc, §9.7.9.24.4).
    NOINC = 32, "noinc";
    /// `.mbarrier::complete_tx::bytes` (cp.async.bulk, §9.7.9.25).
    COMPLETE_TX_BYTES = 33, "mbarrier::complete_tx::bytes";
    /// `.multicast::cluster` (cp.async.bulk, §9.7.9.25).
    MULTICAST_CLUSTER = 34, "multicast::cluster";
    /// `.bulk_group` (cp.async.bulk completion mechanism, §9.7.9.25).
    BULK_GROUP = 35, "bulk_group";
    /// `.read` (cp.async.bulk.wait_group.read, §9.7.9.25.4).
    READ = 36, "read";
    /// `.inc` (setmaxnreg.inc, §9.7.18.1).
    INC = 37, "inc";
    /// `.dec` (setmaxnreg.dec, §9.7.18.1).
    DEC = 38, "dec";
    /// `.wait` (barrier.cluster.wait, §9.7.13.2).
    WAIT = 39, "wait";
    /// `.tensormap` (prefetch.tensormap, §9.7.9.15).
    TENSORMAP = 40, "tensormap";
    /// `.b` (suld.b/sust.b, §9.7.11).
    SURF_B = 41, "b";
    /// `.p` (sust.p, §9.7.11).
    SURF_P = 42, "p";
    /// `.fractional` (createpolicy, §9.7.9.18).
    FRACTIONAL = 43, "fractional";
    /// `.range` (createpolicy, §9.7.9.18).
    RANGE = 44, "range";
    /// `.unified` (ld.unified, reserved).
    UNIFIED = 45, "unified";
    /// `.nocomplete` (mbarrier.arrive.noComplete, §9.7.13.15.13).
    NOCOMPLETE = 46, "noComplete";
    /// `.oob` (fma.oob/min.oob out-of-bounds handling).
    OOB = 47, "oob";
    /// `.sp` sparse (wgmma.mma_async.sp).
    SP = 48, "sp";
    /// `.ordered_metadata` (mma.sp::ordered_metadata).
    ORDERED_METADATA = 49, "ordered_metadata";
    /// `.mixed` (reserved).
    MIXED = 50, "mixed";
    /// `.cta_group::1` (tcgen05, reserved).
    CTA_GROUP_1 = 51, "cta_group::1";
    /// `.cta_group::2` (tcgen05, reserved).
    CTA_GROUP_2 = 52, "cta_group::2";
    /// `.ignore_oob` (cp.async.bulk, reserved).
    IGNORE_OOB = 53, "ignore_oob";
    /// `.pack::b16` (reserved).
    PACK_AB = 54, "pack::b16";
    /// `.unpack::b16` (tcgen05/ld, reserved).
    UNPACK = 55, "unpack::b16";
}

impl Flags {
    pub const NONE: Flags = Flags(0);
    #[inline]
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    #[inline]
    pub const fn intersects(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }
    #[inline]
    pub fn insert(&mut self, other: Flags) {
        self.0 |= other.0;
    }
    #[inline]
    pub fn remove(&mut self, other: Flags) {
        self.0 &= !other.0;
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Looks a flag up by its PTX spelling (without the dot).
    pub fn from_str_flag(s: &str) -> Option<Flags> {
        Flags::NAMES.iter().find(|(_, n)| *n == s).map(|(f, _)| *f)
    }
    /// Iterates the set flags with their spellings, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = (Flags, &'static str)> {
        Flags::NAMES
            .iter()
            .copied()
            .filter(move |(f, _)| self.contains(*f))
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Flags {
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}

impl std::fmt::Debug for Flags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Flags(")?;
        let mut first = true;
        for (_, n) in self.iter() {
            if !first {
                f.write_str("|")?;
            }
            first = false;
            f.write_str(n)?;
        }
        f.write_str(")")
    }
}

/// All modifiers of one instruction, typed. `Copy` and small; unset fields are `None`/0.
///
/// Types are stored in the order they are written: `cvt.rn.f32.s32` has `ty = f32`
/// (destination) and `ty2 = s32` (source); `setp.lt.s32` has `ty = s32` (the compare type;
/// there is no second type); `set.lt.u32.f32` has `ty = u32` (destination), `ty2 = f32`
/// (compare type); `mma....f32.f16.f16.f32` uses `ty`..`ty4` for D, A, B, C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modifiers {
    /// First type suffix (§5.2). For most instructions the operation type.
    pub ty: Option<Type>,
    /// Second type suffix: cvt/cvt.pack/set/slct/dp4a/tex source or compare type (§9.7.9.21, §9.7.7).
    pub ty2: Option<Type>,
    /// Third type suffix (mma B, cvt.pack third, wmma.mma C). (§9.7.14)
    pub ty3: Option<Type>,
    /// Fourth type suffix (mma C). (§9.7.14)
    pub ty4: Option<Type>,
    /// State space (§5.1): ld/st/atom/red/cvta/isspacep/prefetch/mbarrier, first of two for cp.async (dst).
    pub space: Option<StateSpace>,
    /// Second state space: cp.async/cp.async.bulk source space (`.shared.global`) (§9.7.9.24).
    pub space2: Option<StateSpace>,
    /// Rounding modifier (§9.7.3, §9.7.9.21).
    pub rounding: Option<Rounding>,
    /// Comparison operator of setp/set (§9.7.7).
    pub cmp: Option<CmpOp>,
    /// Boolean combining op of setp/set (§9.7.7.4). (bar.red.and/or use `atom_op`.)
    pub bool_op: Option<BoolOp>,
    /// Cache operator (§9.7.9.1).
    pub cache: Option<CacheOp>,
    /// L1 eviction priority (§9.7.9.8).
    pub l1_evict: Option<L1Evict>,
    /// L2 eviction priority (§9.7.9.8).
    pub l2_evict: Option<L2Evict>,
    /// Second L2 eviction priority (createpolicy secondary priority) (§9.7.9.18).
    pub l2_evict2: Option<L2Evict>,
    /// L2 prefetch size (§9.7.9.8).
    pub l2_prefetch: Option<L2Prefetch>,
    /// Cache level of prefetch/prefetchu/discard/applypriority (§9.7.9.15).
    pub level: Option<CacheLevel>,
    /// Scope (§8.5); `membar.gl` is `Gpu`.
    pub scope: Option<Scope>,
    /// Memory ordering semantics (§8.4).
    pub order: Option<MemOrder>,
    /// Vector width `.v2/.v4/.v8`; 1 when absent (§5.4.3 vectors).
    pub vec: u8,
    /// Atomic/reduction op (§9.7.13.5).
    pub atom_op: Option<AtomOp>,
    /// shfl mode (§9.7.13.9).
    pub shfl_mode: Option<ShflMode>,
    /// vote/match mode (§9.7.13.11, §9.7.13.12).
    pub vote_mode: Option<VoteMode>,
    /// mul/mad lo/hi/wide (§9.7.1.3).
    pub mul_mode: Option<MulMode>,
    /// testp operator (§9.7.3.2).
    pub testp: Option<TestpOp>,
    /// prmt mode (§9.7.8.7).
    pub prmt: Option<PrmtMode>,
    /// Matrix shape (§9.7.14).
    pub shape: Option<Shape>,
    /// Layout of A (and of the only layout for wmma.load/store, ldmatrix has none) (§9.7.14).
    pub layout_a: Option<Layout>,
    /// Layout of B (§9.7.14).
    pub layout_b: Option<Layout>,
    /// Geometry (tex/suld/sust/cp.async.bulk.tensor) (§9.7.10).
    pub geom: Option<Geom>,
    /// tld4 component (§9.7.10.4).
    pub component: Option<Component>,
    /// Surface clamp mode (§9.7.11).
    pub clamp: Option<ClampMode>,
    /// ldmatrix/stmatrix `.x1/.x2/.x4` (§9.7.14.5.15).
    pub count: Option<MatrixCount>,
    /// cp.async.bulk.tensor load mode (§9.7.9.25.5).
    pub load_mode: Option<LoadMode>,
    /// Boolean modifiers.
    pub flags: Flags,
}

impl Modifiers {
    /// Empty modifiers (vec = 1).
    pub const EMPTY: Modifiers = Modifiers {
        ty: None,
        ty2: None,
        ty3: None,
        ty4: None,
        space: None,
        space2: None,
        rounding: None,
        cmp: None,
        bool_op: None,
        cache: None,
        l1_evict: None,
        l2_evict: None,
        l2_evict2: None,
        l2_prefetch: None,
        level: None,
        scope: None,
        order: None,
        vec: 1,
        atom_op: None,
        shfl_mode: None,
        vote_mode: None,
        mul_mode: None,
        testp: None,
        prmt: None,
        shape: None,
        layout_a: None,
        layout_b: None,
        geom: None,
        component: None,
        clamp: None,
        count: None,
        load_mode: None,
        flags: Flags::NONE,
    };

    /// True when the flag is set.
    #[inline]
    pub const fn has(&self, f: Flags) -> bool {
        self.flags.contains(f)
    }
}

impl Default for Modifiers {
    fn default() -> Self {
        Modifiers::EMPTY
    }
}

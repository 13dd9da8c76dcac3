//! AST → PTX text. `Display` is implemented for [`Module`] and its parts; the output
//! parses back to an equal AST (modulo spans, see [`crate::ast::strip_spans`]).
//!
//! Modifiers are printed in the order the PTX ISA grammar lists them for each
//! instruction (a general order, with per-opcode overrides).

use std::fmt::{self, Display, Formatter, Write};

use crate::ast::*;
use crate::modifiers::*;
use crate::opcode::Opcode;

impl Display for Module<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, ".version {}.{}", self.version.0, self.version.1)?;
        if !self.target.is_empty() {
            writeln!(f, ".target {}", self.target.join(", "))?;
        }
        if self.address_size != 0 {
            writeln!(f, ".address_size {}", self.address_size)?;
        }
        for item in &self.items {
            writeln!(f)?;
            write!(f, "{item}")?;
        }
        Ok(())
    }
}

impl Display for Item<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Item::Function(func) => write!(f, "{func}"),
            Item::Variable(v) => writeln!(f, "{v}"),
            Item::Pragma(p) => writeln!(f, "{p}"),
            Item::CallPrototype(p) => writeln!(f, "{p}"),
            Item::DebugSection(s) => writeln!(f, ".section {}\n{{{}}}", s.name, s.body),
            Item::File(file) => writeln!(f, "{file}"),
        }
    }
}

impl Display for FileDecl<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, ".file {} \"{}\"", self.index, self.path)?;
        if let (Some(t), Some(s)) = (self.timestamp, self.size) {
            write!(f, ", {t}, {s}")?;
        }
        Ok(())
    }
}

impl Display for Pragma<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(".pragma ")?;
        for (i, s) in self.strings.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "\"{s}\"")?;
        }
        f.write_str(";")
    }
}

fn write_dims(f: &mut Formatter<'_>, dims: &Dims) -> fmt::Result {
    for d in dims {
        match d {
            Some(n) => write!(f, "[{n}]")?,
            None => f.write_str("[]")?,
        }
    }
    Ok(())
}

fn write_vec(f: &mut Formatter<'_>, vec: u8) -> fmt::Result {
    if vec > 1 {
        write!(f, " .v{vec}")
    } else {
        Ok(())
    }
}

impl Display for Param<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.space)?;
        if let Some(a) = self.align {
            write!(f, " .align {a}")?;
        }
        write_vec(f, self.vec)?;
        write!(f, " .{}", self.ty)?;
        if let Some(p) = self.ptr {
            f.write_str(" .ptr")?;
            if let Some(s) = p.space {
                write!(f, " .{s}")?;
            }
            if let Some(a) = p.align {
                write!(f, " .align {a}")?;
            }
        }
        write!(f, " {}", self.name)?;
        write_dims(f, &self.dims)
    }
}

fn write_params(f: &mut Formatter<'_>, ps: &[Param<'_>], multiline: bool) -> fmt::Result {
    f.write_str("(")?;
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
            if !multiline {
                f.write_str(" ")?;
            }
        }
        if multiline {
            f.write_str("\n\t")?;
        }
        write!(f, "{p}")?;
    }
    if multiline && !ps.is_empty() {
        f.write_str("\n")?;
    }
    f.write_str(")")
}

fn write_dims3(f: &mut Formatter<'_>, name: &str, d: Option<[u32; 3]>) -> fmt::Result {
    if let Some([x, y, z]) = d {
        writeln!(f, ".{name} {x}, {y}, {z}")?;
    }
    Ok(())
}

impl Display for Function<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.linkage {
            write!(f, ".{l} ")?;
        }
        write!(f, ".{} ", self.kind)?;
        if !self.returns.is_empty() {
            write_params(f, &self.returns, false)?;
            f.write_str(" ")?;
        }
        f.write_str(self.name)?;
        write_params(f, &self.params, true)?;
        f.write_str("\n")?;
        let a = &self.attrs;
        write_dims3(f, "maxntid", a.maxntid)?;
        write_dims3(f, "reqntid", a.reqntid)?;
        write_dims3(f, "reqnctapercluster", a.reqnctapercluster)?;
        if let Some(n) = a.minnctapersm {
            writeln!(f, ".minnctapersm {n}")?;
        }
        if let Some(n) = a.maxnctapersm {
            writeln!(f, ".maxnctapersm {n}")?;
        }
        if let Some(n) = a.maxnreg {
            writeln!(f, ".maxnreg {n}")?;
        }
        if let Some(n) = a.maxclusterrank {
            writeln!(f, ".maxclusterrank {n}")?;
        }
        if a.noreturn {
            writeln!(f, ".noreturn")?;
        }
        if a.explicitcluster {
            writeln!(f, ".explicitcluster")?;
        }
        if a.blocksareclusters {
            writeln!(f, ".blocksareclusters")?;
        }
        match &self.body {
            None => writeln!(f, ";"),
            Some(body) => {
                f.write_str("{\n")?;
                write_statements(f, body, 1)?;
                f.write_str("}\n")
            }
        }
    }
}

fn indent(f: &mut Formatter<'_>, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        f.write_char('\t')?;
    }
    Ok(())
}

fn write_statements(f: &mut Formatter<'_>, body: &[Statement<'_>], depth: usize) -> fmt::Result {
    for s in body {
        match s {
            Statement::Label(name, _) => writeln!(f, "{name}:")?,
            Statement::Scope(inner) => {
                indent(f, depth)?;
                f.write_str("{\n")?;
                write_statements(f, inner, depth + 1)?;
                indent(f, depth)?;
                f.write_str("}\n")?;
            }
            other => {
                indent(f, depth)?;
                writeln!(f, "{other}")?;
            }
        }
    }
    Ok(())
}

impl Display for Statement<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Statement::Label(name, _) => write!(f, "{name}:"),
            Statement::Instruction(i) => write!(f, "{i}"),
            Statement::RegDecl(r) => write!(f, "{r}"),
            Statement::VarDecl(v) => write!(f, "{v}"),
            Statement::Loc(l) => write!(f, "{l}"),
            Statement::Pragma(p) => write!(f, "{p}"),
            Statement::Scope(inner) => {
                f.write_str("{\n")?;
                write_statements(f, inner, 1)?;
                f.write_str("}")
            }
            Statement::CallPrototype(p) => write!(f, "{p}"),
            Statement::BranchTargets(t) => write_targets(f, "branchtargets", t),
            Statement::CallTargets(t) => write_targets(f, "calltargets", t),
        }
    }
}

fn write_targets(f: &mut Formatter<'_>, kw: &str, t: &TargetList<'_>) -> fmt::Result {
    write!(f, "{}: .{kw} {};", t.name, t.targets.join(", "))
}

impl Display for RegDecl<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(".reg")?;
        write_vec(f, self.vec)?;
        write!(f, " .{} ", self.ty)?;
        for (i, n) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n.name)?;
            if let Some(c) = n.count {
                write!(f, "<{c}>")?;
            }
        }
        f.write_str(";")
    }
}

impl Display for Loc<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, ".loc {} {} {}", self.file, self.line, self.col)?;
        if let Some(n) = self.function_name {
            write!(f, ", function_name {n}")?;
        }
        if let Some((a, b, c)) = self.inlined_at {
            write!(f, ", inlined_at {a} {b} {c}")?;
        }
        Ok(())
    }
}

impl Display for CallPrototype<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}: .callprototype ", self.name)?;
        if !self.returns.is_empty() {
            write_params(f, &self.returns, false)?;
            f.write_str(" ")?;
        }
        f.write_str("_ ")?;
        write_params(f, &self.params, false)?;
        if self.noreturn {
            f.write_str(" .noreturn")?;
        }
        f.write_str(";")
    }
}

impl Display for Variable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.linkage {
            write!(f, ".{l} ")?;
        }
        write!(f, ".{}", self.space)?;
        if self.managed {
            f.write_str(" .attribute(.managed)")?;
        }
        if let Some(a) = self.align {
            write!(f, " .align {a}")?;
        }
        write_vec(f, self.vec)?;
        write!(f, " .{} {}", self.ty, self.name)?;
        write_dims(f, &self.dims)?;
        if let Some(init) = &self.init {
            write!(f, " = {init}")?;
        }
        f.write_str(";")
    }
}

impl Display for Initializer<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Initializer::Value(v) => write!(f, "{v}"),
            Initializer::List(items) => {
                f.write_str("{")?;
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{it}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl Display for InitValue<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            InitValue::Int(v) => write!(f, "{v}"),
            InitValue::UInt(v) => write!(f, "{v}U"),
            InitValue::F32(b) => write!(f, "0f{b:08X}"),
            InitValue::F64(b) => write!(f, "0d{b:016X}"),
            InitValue::Addr {
                name,
                offset,
                generic,
            } => {
                if generic {
                    write!(f, "generic({name})")?;
                } else {
                    f.write_str(name)?;
                }
                write_offset(f, offset)
            }
        }
    }
}

fn write_offset(f: &mut Formatter<'_>, offset: i64) -> fmt::Result {
    // ptxas accepts `[%rd1+-8]` but not `[%rd1-8]`.
    if offset != 0 {
        write!(f, "+{offset}")
    } else {
        Ok(())
    }
}

impl Display for Guard<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.negated {
            write!(f, "@!{}", self.reg)
        } else {
            write!(f, "@{}", self.reg)
        }
    }
}

impl Display for Instruction<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(g) = self.guard {
            write!(f, "{g} ")?;
        }
        write!(f, "{}", Mnemonic(self.op, &self.mods))?;
        for (i, o) in self.operands.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{o}")?;
        }
        f.write_str(";")
    }
}

/// An instruction's mnemonic with its modifiers in PTX ISA order (`ld.global.nc.v4.f32`), for
/// printers of other representations (the IR) that keep `Opcode` and `Modifiers`.
#[derive(Clone, Copy, Debug)]
pub struct Mnemonic<'m>(pub Opcode, pub &'m Modifiers);

impl Display for Mnemonic<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())?;
        write_modifiers(f, self.0, self.1)
    }
}

fn write_list(
    f: &mut Formatter<'_>,
    open: &str,
    items: &[Operand<'_>],
    close: &str,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, o) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{o}")?;
    }
    f.write_str(close)
}

impl Display for Operand<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) | Operand::Symbol(r) => f.write_str(r),
            Operand::SpecialReg(s, d) => {
                write!(f, "{s}")?;
                if let Some(d) = d {
                    write!(f, ".{}", d.as_str())?;
                }
                Ok(())
            }
            Operand::Imm(v) => write!(f, "{v}"),
            Operand::UImm(v) => write!(f, "{v}U"),
            Operand::FImm32(b) => write!(f, "0f{b:08X}"),
            Operand::FImm64(b) => write!(f, "0d{b:016X}"),
            Operand::Address(a) => write!(f, "{a}"),
            Operand::Vector(v) => write_list(f, "{", v, "}"),
            Operand::Sink => f.write_str("_"),
            Operand::Negated(r) => write!(f, "!{r}"),
            Operand::PredPair(a, b) => write!(f, "{a}|{b}"),
            Operand::List(v) => write_list(f, "(", v, ")"),
            Operand::AddressList(v) => write_list(f, "[", v, "]"),
        }
    }
}

impl Display for Address<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        match self.base {
            AddrBase::Reg(r) | AddrBase::Symbol(r) => f.write_str(r)?,
            AddrBase::Imm(v) => write!(f, "{v}")?,
        }
        write_offset(f, self.offset)?;
        f.write_str("]")
    }
}

/// A modifier slot in print order.
#[derive(Clone, Copy)]
enum S {
    Order,
    Scope,
    Space,
    Space2,
    Cache,
    L1,
    L2,
    L2b,
    L2Pf,
    Level,
    Vec,
    Atom,
    Shfl,
    Vote,
    Mul,
    Testp,
    Prmt,
    Shape,
    LayA,
    LayB,
    Geom,
    Comp,
    Clamp,
    Count,
    LoadMode,
    Round,
    Cmp,
    Bool,
    Types,
    F(Flags),
}

use S::*;

const DEFAULT: &[S] = &[
    F(Flags::PROXY),
    F(Flags::ASYNC),
    F(Flags::ALIAS),
    F(Flags::TENSORMAP_GENERIC),
    F(Flags::MBARRIER_INIT),
    F(Flags::EXPECT_TX),
    F(Flags::PARITY),
    F(Flags::NOCOMPLETE),
    F(Flags::NOINC),
    F(Flags::TO),
    F(Flags::LEFT),
    F(Flags::RIGHT),
    F(Flags::INC),
    F(Flags::DEC),
    F(Flags::SURF_B),
    F(Flags::SURF_P),
    F(Flags::FRACTIONAL),
    F(Flags::RANGE),
    F(Flags::ARRIVE),
    F(Flags::WAIT),
    F(Flags::RED),
    F(Flags::SYNC),
    F(Flags::UNI),
    Vote,
    Shfl,
    Testp,
    Cmp,
    Bool,
    Mul,
    Order,
    Scope,
    Comp,
    Geom,
    Space,
    Space2,
    LoadMode,
    Cache,
    F(Flags::NC),
    L1,
    L2,
    L2b,
    F(Flags::L2_CACHE_HINT),
    L2Pf,
    Level,
    F(Flags::TENSORMAP),
    Atom,
    F(Flags::NOFTZ),
    F(Flags::COMPLETE_TX_BYTES),
    F(Flags::BULK_GROUP),
    F(Flags::MULTICAST_CLUSTER),
    F(Flags::READ),
    F(Flags::ALIGNED),
    Shape,
    LayA,
    LayB,
    Count,
    F(Flags::TRANS),
    Round,
    F(Flags::APPROX),
    F(Flags::FULL),
    F(Flags::OOB),
    F(Flags::RELU),
    F(Flags::FTZ),
    F(Flags::NAN),
    F(Flags::XORSIGN),
    F(Flags::ABS),
    F(Flags::SAT),
    F(Flags::SATFINITE),
    F(Flags::CC),
    F(Flags::SHIFTAMT),
    F(Flags::WRAP),
    F(Flags::CLAMP),
    F(Flags::UNIFIED),
    Vec,
    Types,
    Prmt,
    Clamp,
];

/// Per-opcode print order; slots not listed follow in [`DEFAULT`] order.
fn template(op: Opcode) -> &'static [S] {
    match op {
        Opcode::Atom | Opcode::Red => &[
            Order,
            Scope,
            Space,
            Atom,
            F(Flags::NOFTZ),
            F(Flags::L2_CACHE_HINT),
            Vec,
            Types,
        ],
        Opcode::Match => &[Vote, F(Flags::SYNC), Types],
        Opcode::Redux => &[F(Flags::SYNC), Atom, F(Flags::ABS), F(Flags::NAN), Types],
        Opcode::CpAsync => &[Cache, Space, Space2, F(Flags::L2_CACHE_HINT), L2Pf],
        Opcode::CpAsyncBulk | Opcode::CpAsyncBulkTensor => &[
            Geom,
            Space,
            Space2,
            LoadMode,
            F(Flags::COMPLETE_TX_BYTES),
            F(Flags::BULK_GROUP),
            F(Flags::MULTICAST_CLUSTER),
            F(Flags::L2_CACHE_HINT),
        ],
        Opcode::CpReduceAsyncBulk => &[
            Space,
            Space2,
            F(Flags::COMPLETE_TX_BYTES),
            F(Flags::BULK_GROUP),
            F(Flags::L2_CACHE_HINT),
            Atom,
            F(Flags::NOFTZ),
            Types,
        ],
        Opcode::CpReduceAsyncBulkTensor => &[
            Geom,
            Space,
            Space2,
            Atom,
            LoadMode,
            F(Flags::COMPLETE_TX_BYTES),
            F(Flags::BULK_GROUP),
            F(Flags::L2_CACHE_HINT),
        ],
        Opcode::CpAsyncBulkPrefetch | Opcode::CpAsyncBulkPrefetchTensor => {
            &[Geom, Level, Space, LoadMode, F(Flags::L2_CACHE_HINT)]
        }
        Opcode::Ldmatrix | Opcode::Stmatrix | Opcode::Movmatrix => &[
            F(Flags::SYNC),
            F(Flags::ALIGNED),
            Shape,
            Count,
            F(Flags::TRANS),
            Space,
            Types,
        ],
        Opcode::WmmaLoadA
        | Opcode::WmmaLoadB
        | Opcode::WmmaLoadC
        | Opcode::WmmaStoreD
        | Opcode::WmmaMma => &[
            F(Flags::SYNC),
            F(Flags::ALIGNED),
            LayA,
            LayB,
            Shape,
            Space,
            Round,
            Types,
            F(Flags::SATFINITE),
        ],
        Opcode::RedAsync => &[
            Order,
            Scope,
            Space,
            F(Flags::COMPLETE_TX_BYTES),
            Atom,
            Types,
        ],
        Opcode::Sured => &[F(Flags::SURF_B), F(Flags::SURF_P), Atom, Geom, Types, Clamp],
        Opcode::TensormapCpFenceproxy | Opcode::TensormapReplace => &[
            Space,
            Space2,
            F(Flags::TENSORMAP_GENERIC),
            Order,
            Scope,
            F(Flags::SYNC),
            F(Flags::ALIGNED),
        ],
        Opcode::Vadd
        | Opcode::Vsub
        | Opcode::Vabsdiff
        | Opcode::Vmin
        | Opcode::Vmax
        | Opcode::Vshl
        | Opcode::Vshr
        | Opcode::Vmad
        | Opcode::Vset
        | Opcode::Vadd2
        | Opcode::Vsub2
        | Opcode::Vavrg2
        | Opcode::Vabsdiff2
        | Opcode::Vmin2
        | Opcode::Vmax2
        | Opcode::Vset2
        | Opcode::Vadd4
        | Opcode::Vsub4
        | Opcode::Vavrg4
        | Opcode::Vabsdiff4
        | Opcode::Vmin4
        | Opcode::Vmax4
        | Opcode::Vset4 => &[
            Types,
            Cmp,
            F(Flags::SAT),
            F(Flags::WRAP),
            F(Flags::CLAMP),
            Atom,
        ],
        _ => &[],
    }
}

fn write_modifiers(f: &mut Formatter<'_>, op: Opcode, m: &Modifiers) -> fmt::Result {
    let mut rem = *m;
    for &s in template(op).iter().chain(DEFAULT.iter()) {
        write_slot(f, op, &mut rem, s)?;
    }
    // Any flag not placed by the tables (none today) still gets printed.
    for (_, name) in rem.flags.iter() {
        write!(f, ".{name}")?;
    }
    Ok(())
}

fn put<T: Display>(f: &mut Formatter<'_>, v: &mut Option<T>) -> fmt::Result {
    match v.take() {
        Some(x) => write!(f, ".{x}"),
        None => Ok(()),
    }
}

fn write_slot(f: &mut Formatter<'_>, op: Opcode, m: &mut Modifiers, s: S) -> fmt::Result {
    match s {
        Order => put(f, &mut m.order),
        Scope => {
            if op == Opcode::Membar && m.scope == Some(crate::modifiers::Scope::Gpu) {
                m.scope = None;
                return f.write_str(".gl");
            }
            put(f, &mut m.scope)
        }
        Space => put(f, &mut m.space),
        Space2 => put(f, &mut m.space2),
        Cache => put(f, &mut m.cache),
        L1 => put(f, &mut m.l1_evict),
        L2 => put(f, &mut m.l2_evict),
        L2b => put(f, &mut m.l2_evict2),
        L2Pf => put(f, &mut m.l2_prefetch),
        Level => put(f, &mut m.level),
        Vec => {
            if m.vec > 1 {
                write!(f, ".v{}", m.vec)?;
            }
            m.vec = 1;
            Ok(())
        }
        Atom => put(f, &mut m.atom_op),
        Shfl => put(f, &mut m.shfl_mode),
        Vote => put(f, &mut m.vote_mode),
        Mul => put(f, &mut m.mul_mode),
        Testp => put(f, &mut m.testp),
        Prmt => put(f, &mut m.prmt),
        Shape => put(f, &mut m.shape),
        LayA => put(f, &mut m.layout_a),
        LayB => put(f, &mut m.layout_b),
        Geom => put(f, &mut m.geom),
        Comp => put(f, &mut m.component),
        Clamp => put(f, &mut m.clamp),
        Count => put(f, &mut m.count),
        LoadMode => put(f, &mut m.load_mode),
        Round => put(f, &mut m.rounding),
        Cmp => put(f, &mut m.cmp),
        Bool => put(f, &mut m.bool_op),
        Types => {
            put(f, &mut m.ty)?;
            put(f, &mut m.ty2)?;
            put(f, &mut m.ty3)?;
            put(f, &mut m.ty4)
        }
        F(flag) => {
            if m.flags.contains(flag) {
                m.flags.remove(flag);
                for (fl, name) in Flags::NAMES {
                    if *fl == flag {
                        return write!(f, ".{name}");
                    }
                }
            }
            Ok(())
        }
    }
}

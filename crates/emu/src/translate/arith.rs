//! Integer and floating-point arithmetic, logic, comparisons and selects: the ops that
//! become `Op::Bin`, `Op::Tern`, `Op::Setp`/`Op::Set`, `Op::Selp`, `Op::Carry` and friends
//! (executed by `exec::arith`).

use super::*;
use Opcode as O;

/// Finds the `mul.f32`/`mul.f64` + `add`/`sub` pairs that ptxas fuses into one FMA: the
/// multiply has no rounding modifier (so contraction is allowed), its result has exactly one
/// use, an addition or subtraction of the same type without rounding modifier later in the
/// same block, and neither the product nor the factors are redefined in between.
pub(super) fn contractions(f: &warpscope_ir::Function) -> HashMap<Inst, (Inst, usize)> {
    use warpscope_ir::effects::{for_each_def, for_each_use};
    let mut uses: HashMap<Reg, u32> = HashMap::new();
    for (_, d) in f.insts.iter() {
        for_each_use(d, |r| *uses.entry(r).or_default() += 1);
    }
    let plain = |d: &warpscope_ir::InstData| {
        d.mods.rounding.is_none()
            && !d.mods.has(Flags::SAT)
            && matches!(d.mods.ty, Some(Type::F32 | Type::F64))
    };
    let mut out = HashMap::new();
    for (_, bd) in f.blocks.iter() {
        for (k, &mi) in bd.insts.iter().enumerate() {
            let md = &f.insts[mi];
            if md.op != Opcode::Mul || !plain(md) || md.guard.is_some() {
                continue;
            }
            let Some(Operand::Reg(p)) = md.operands.first() else {
                continue;
            };
            if uses.get(p).copied() != Some(1) {
                continue;
            }
            let factors: Vec<Reg> = md.operands[1..]
                .iter()
                .filter_map(|o| {
                    if let Operand::Reg(r) = o {
                        Some(*r)
                    } else {
                        None
                    }
                })
                .collect();
            for &ai in &bd.insts[k + 1..] {
                let ad = &f.insts[ai];
                let pos = ad
                    .operands
                    .iter()
                    .skip(1)
                    .position(|o| *o == Operand::Reg(*p));
                if let Some(pos) = pos {
                    if matches!(ad.op, Opcode::Add | Opcode::Sub)
                        && plain(ad)
                        && ad.mods.ty == md.mods.ty
                        && ad.mods.has(Flags::FTZ) == md.mods.has(Flags::FTZ)
                        && ad.guard.is_none()
                        && !ad.mods.has(Flags::CC)
                    {
                        out.insert(ai, (mi, pos + 1));
                    }
                    break;
                }
                let mut clobbers = false;
                for_each_def(ad, |r| clobbers |= r == *p || factors.contains(&r));
                if clobbers {
                    break;
                }
            }
        }
    }
    out
}

impl FnTranslator<'_, '_> {
    /// `add`, `sub`.
    pub(super) fn add_sub(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let t = self.ty()?;
        if fl.contains(Flags::CC) {
            return self.carry(
                if d.op == O::Add {
                    CarryOp::Add
                } else {
                    CarryOp::Sub
                },
                t,
                false,
                true,
            );
        }
        if let Some(ft) = fty_of(t) {
            if let Some(&(mul, pos)) = self.contract.get(&self.cur_inst) {
                return self.contracted_fma(mul, pos, ft);
            }
            let op = if d.op == O::Add { FBin::Add } else { FBin::Sub };
            return self.fbin(op, ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let f = match (d.op, fl.contains(Flags::SAT)) {
            (O::Add, false) => IBin::Add,
            (O::Sub, false) => IBin::Sub,
            (O::Add, true) => IBin::AddSat,
            (_, true) => IBin::SubSat,
            _ => unreachable!(),
        };
        self.ibin(f, w, t)
    }

    /// `addc`, `subc`.
    pub(super) fn addc_subc(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let t = self.ty()?;
        let op = if d.op == O::Addc {
            CarryOp::Add
        } else {
            CarryOp::Sub
        };
        self.carry(op, t, true, fl.contains(Flags::CC))
    }

    /// `madc`.
    pub(super) fn madc(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let fl = d.mods.flags;
        let t = self.ty()?;
        let op = match m.mul_mode {
            Some(MulMode::Hi) => CarryOp::MadHi,
            _ => CarryOp::MadLo,
        };
        self.carry(op, t, true, fl.contains(Flags::CC))
    }

    /// `mul`.
    pub(super) fn mul(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let t = self.ty()?;
        if let Some(ft) = fty_of(t) {
            return self.fbin(FBin::Mul, ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let s = t.is_signed_int();
        let f = match m.mul_mode {
            None | Some(MulMode::Lo) => IBin::MulLo,
            Some(MulMode::Hi) => {
                if s {
                    IBin::MulHiS
                } else {
                    IBin::MulHiU
                }
            }
            Some(MulMode::Wide) => {
                if w == W::B64 {
                    return Err("mul.wide.64 does not exist".into());
                }
                if s { IBin::MulWideS } else { IBin::MulWideU }
            }
        };
        self.ibin(f, w, t)
    }

    /// `mul24`, `mad24`.
    pub(super) fn mul24(&mut self) -> TResult<()> {
        let d = self.cur();
        let t = self.ty()?;
        let hi = d.mods.mul_mode == Some(MulMode::Hi);
        let s = t.is_signed_int();
        if d.op == Opcode::Mul24 {
            let f = match (hi, s) {
                (true, true) => IBin::Mul24HiS,
                (true, false) => IBin::Mul24HiU,
                (false, true) => IBin::Mul24LoS,
                (false, false) => IBin::Mul24LoU,
            };
            return self.ibin(f, W::B32, t);
        }
        let f = match (hi, s) {
            (true, true) => ITern::Mad24HiS,
            (true, false) => ITern::Mad24HiU,
            (false, true) => ITern::Mad24LoS,
            (false, false) => ITern::Mad24LoU,
        };
        self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
    }

    /// `mad`.
    pub(super) fn mad(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let fl = d.mods.flags;
        let t = self.ty()?;
        if fl.contains(Flags::CC) {
            let op = match m.mul_mode {
                Some(MulMode::Hi) => CarryOp::MadHi,
                _ => CarryOp::MadLo,
            };
            return self.carry(op, t, false, true);
        }
        if let Some(ft) = fty_of(t) {
            return self.fma(ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let s = t.is_signed_int();
        let f = match m.mul_mode {
            None | Some(MulMode::Lo) => ITern::MadLo,
            Some(MulMode::Hi) if fl.contains(Flags::SAT) => {
                if !(s && w == W::B32) {
                    return Err("mad.hi.sat needs .s32".into());
                }
                ITern::MadHiSatS32
            }
            Some(MulMode::Hi) => {
                if s {
                    ITern::MadHiS
                } else {
                    ITern::MadHiU
                }
            }
            Some(MulMode::Wide) => {
                if s {
                    ITern::MadWideS
                } else {
                    ITern::MadWideU
                }
            }
        };
        let k_c = if m.mul_mode == Some(MulMode::Wide) {
            K::I(double(w))
        } else {
            K::I(w)
        };
        self.itern(f, w, K::I(w), k_c)
    }

    /// `sad`.
    pub(super) fn sad(&mut self) -> TResult<()> {
        let t = self.ty()?;
        let w = w_of(t).ok_or("bad type")?;
        let f = if t.is_signed_int() {
            ITern::SadS
        } else {
            ITern::SadU
        };
        self.itern(f, w, K::I(w), K::I(w))
    }

    /// `div`, `rem`.
    pub(super) fn div_rem(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let t = self.ty()?;
        if let Some(ft) = fty_of(t) {
            if d.op == O::Rem {
                return Err("rem on floats does not exist".into());
            }
            let op = if fl.contains(Flags::APPROX) {
                FBin::DivApprox
            } else if fl.contains(Flags::FULL) {
                FBin::DivFull
            } else {
                FBin::Div
            };
            return self.fbin(op, ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let s = t.is_signed_int();
        let f = match (d.op, s) {
            (O::Div, true) => IBin::DivS,
            (O::Div, false) => IBin::DivU,
            (_, true) => IBin::RemS,
            (_, false) => IBin::RemU,
        };
        self.ibin(f, w, t)
    }

    /// `min`, `max`.
    pub(super) fn min_max(&mut self) -> TResult<()> {
        let d = self.cur();
        let ops = &d.operands;
        let fl = d.mods.flags;
        let t = self.ty()?;
        let is_min = d.op == O::Min;
        if let Some(ft) = fty_of(t) {
            if fl.contains(Flags::XORSIGN) || fl.contains(Flags::ABS) {
                return Err(format!("`{}.xorsign.abs` is not supported", d.op));
            }
            if ops.len() > 3 {
                return Err("three-input min/max is not supported".into());
            }
            let op = match (is_min, fl.contains(Flags::NAN)) {
                (true, false) => FBin::Min,
                (false, false) => FBin::Max,
                (true, true) => FBin::MinNaN,
                (false, true) => FBin::MaxNaN,
            };
            return self.fbin(op, ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let s = t.is_signed_int();
        let f = match (is_min, s, fl.contains(Flags::RELU)) {
            (true, true, true) => IBin::MinSRelu,
            (false, true, true) => IBin::MaxSRelu,
            (true, true, false) => IBin::MinS,
            (true, false, _) => IBin::MinU,
            (false, true, false) => IBin::MaxS,
            (false, false, _) => IBin::MaxU,
        };
        if t == Type::S16x2 || t == Type::U16x2 {
            return Err(format!("`{}` on packed 16x2 is not supported", d.op));
        }
        self.ibin(f, w, t)
    }

    /// `abs`, `neg`.
    pub(super) fn abs_neg(&mut self) -> TResult<()> {
        let d = self.cur();
        let t = self.ty()?;
        if let Some(ft) = fty_of(t) {
            let f = if d.op == O::Abs { FUn::Abs } else { FUn::Neg };
            return self.fun(f, ft);
        }
        let w = w_of(t).ok_or("bad type")?;
        let f = if d.op == O::Abs { IUn::Abs } else { IUn::Neg };
        self.iun(f, w, t)
    }

    /// `not`, `cnot`.
    pub(super) fn not_cnot(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        if t == Type::Pred {
            let p = self.dst_pred(opn(0)?)?;
            let (a, an) = self.src_pred(opn(1)?)?;
            self.emit_def(p, Op::PMov { p, a, neg: !an });
            return Ok(());
        }
        let w = w_of(t).ok_or("bad type")?;
        let f = if d.op == O::Not { IUn::Not } else { IUn::Cnot };
        self.iun(f, w, t)
    }

    /// `popc`, `clz`, `brev`, `bfind`.
    pub(super) fn bit_scan(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let t = self.ty()?;
        let w = w_of(t).ok_or("bad type")?;
        let f = match d.op {
            O::Popc => IUn::Popc,
            O::Clz => IUn::Clz,
            O::Brev => IUn::Brev,
            _ => match (t.is_signed_int(), fl.contains(Flags::SHIFTAMT)) {
                (false, false) => IUn::BfindU,
                (true, false) => IUn::BfindS,
                (false, true) => IUn::BfindShU,
                (true, true) => IUn::BfindShS,
            },
        };
        self.iun(f, w, t)
    }

    /// `bfe`.
    pub(super) fn bfe(&mut self) -> TResult<()> {
        let t = self.ty()?;
        let w = w_of(t).ok_or("bad type")?;
        let f = if t.is_signed_int() {
            ITern::BfeS
        } else {
            ITern::BfeU
        };
        self.itern(f, w, K::I(W::B32), K::I(W::B32))
    }

    /// `bfi`.
    pub(super) fn bfi(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        let w = w_of(t).ok_or("bad type")?;
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(w))?;
        let b = self.src(opn(2)?, K::I(w))?;
        let c = self.src(opn(3)?, K::I(W::B32))?;
        let e = self.src(opn(4)?, K::I(W::B32))?;
        self.emit_def(
            dd,
            Op::Bfi {
                w,
                d: dd,
                a,
                b,
                c,
                e,
            },
        );
        Ok(())
    }

    /// `bmsk`.
    pub(super) fn bmsk(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let f = if fl.contains(Flags::CLAMP) {
            IBin::BmskClamp
        } else {
            IBin::BmskWrap
        };
        self.ibin(f, W::B32, Type::B32)
    }

    /// `szext`.
    pub(super) fn szext(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let t = self.ty()?;
        let s = t.is_signed_int();
        let f = if fl.contains(Flags::CLAMP) {
            IBin::SzextClamp { signed: s }
        } else {
            IBin::SzextWrap { signed: s }
        };
        self.ibin(f, W::B32, t)
    }

    /// `dp4a`, `dp2a`.
    pub(super) fn dot_product(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let ty = d.mods.ty;
        let ta = ty.ok_or("missing type")?;
        let tb = m.ty2.ok_or("missing type")?;
        let f = if d.op == O::Dp4a {
            ITern::Dp4a {
                a_signed: ta.is_signed_int(),
                b_signed: tb.is_signed_int(),
            }
        } else {
            ITern::Dp2a {
                hi: m.mul_mode == Some(MulMode::Hi),
                a_signed: ta.is_signed_int(),
                b_signed: tb.is_signed_int(),
            }
        };
        self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
    }

    /// `testp`.
    pub(super) fn testp(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let opn = |i: usize| operand(d, i);
        let ft = fty_of(self.ty()?).ok_or("testp needs f32/f64")?;
        let p = self.dst_pred(opn(0)?)?;
        let k = if ft == FTy::F64 { K::F64 } else { K::F32 };
        let a = self.src(opn(1)?, k)?;
        let f = m.testp.ok_or("testp needs an operator")?;
        self.emit_def(p, Op::Testp { f, ty: ft, p, a });
        Ok(())
    }

    /// `copysign`.
    pub(super) fn copysign(&mut self) -> TResult<()> {
        let t = self.ty()?;
        let ft = fty_of(t).ok_or("copysign needs f32/f64")?;
        self.fbin(FBin::Copysign, ft)
    }

    /// `fma`.
    pub(super) fn fma_inst(&mut self) -> TResult<()> {
        let t = self.ty()?;
        let ft = fty_of(t).ok_or("fma needs a float type")?;
        self.fma(ft)
    }

    /// `selp`.
    pub(super) fn selp(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        let k = k_of(t).ok_or("bad type")?;
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, k)?;
        let b = self.src(opn(2)?, k)?;
        let (p, neg) = self.src_pred(opn(3)?)?;
        self.emit_def(
            dd,
            Op::Selp {
                d: dd,
                a,
                b,
                p,
                neg,
            },
        );
        Ok(())
    }

    /// `slct`.
    pub(super) fn slct(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let fl = d.mods.flags;
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        let k = k_of(t).ok_or("bad type")?;
        let ct = m.ty2.ok_or("slct needs a compare type")?;
        let (f, kc) = if ct == Type::F32 {
            (
                ITern::SlctF {
                    ftz: fl.contains(Flags::FTZ),
                },
                K::F32,
            )
        } else {
            (ITern::SlctS, K::I(W::B32))
        };
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, k)?;
        let b = self.src(opn(2)?, k)?;
        let c = self.src(opn(3)?, kc)?;
        self.emit_def(
            dd,
            Op::Tern {
                f: TernF::Int(f, W::B64),
                d: dd,
                a,
                b,
                c,
            },
        );
        Ok(())
    }

    /// `and`, `or`, `xor`.
    pub(super) fn logic(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        if t == Type::Pred {
            let p = self.dst_pred(opn(0)?)?;
            let (a, an) = self.src_pred(opn(1)?)?;
            let (b, bn) = self.src_pred(opn(2)?)?;
            let op = match d.op {
                O::And => BoolOp::And,
                O::Or => BoolOp::Or,
                _ => BoolOp::Xor,
            };
            self.emit_def(
                p,
                Op::PLogic {
                    op,
                    p,
                    a,
                    an,
                    b,
                    bn,
                },
            );
            return Ok(());
        }
        let w = w_of(t).ok_or("bad type")?;
        let f = match d.op {
            O::And => IBin::And,
            O::Or => IBin::Or,
            _ => IBin::Xor,
        };
        self.ibin(f, w, t)
    }

    /// `lop3`.
    pub(super) fn lop3(&mut self) -> TResult<()> {
        let d = self.cur();
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(W::B32))?;
        let b = self.src(opn(2)?, K::I(W::B32))?;
        let c = self.src(opn(3)?, K::I(W::B32))?;
        let lut = match opn(4)? {
            Operand::Imm(v) => *v as u8,
            Operand::UImm(v) => *v as u8,
            _ => return Err("lop3 needs an immediate LUT".into()),
        };
        if ops.len() > 5 {
            return Err("lop3 with a predicate output is not supported".into());
        }
        self.emit_def(
            dd,
            Op::Lop3 {
                d: dd,
                a,
                b,
                c,
                lut,
            },
        );
        Ok(())
    }

    /// `shf`.
    pub(super) fn shf(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let clamp = fl.contains(Flags::CLAMP);
        let f = if fl.contains(Flags::LEFT) {
            ITern::ShfL { clamp }
        } else {
            ITern::ShfR { clamp }
        };
        self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
    }

    /// `shl`, `shr`.
    pub(super) fn shift(&mut self) -> TResult<()> {
        let d = self.cur();
        let t = self.ty()?;
        let w = w_of(t).ok_or("bad type")?;
        let f = match (d.op, t.is_signed_int()) {
            (O::Shl, _) => IBin::Shl,
            (_, true) => IBin::ShrS,
            (_, false) => IBin::ShrU,
        };
        self.ibin(f, w, t)
    }

    /// `prmt`.
    pub(super) fn prmt(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let opn = |i: usize| operand(d, i);
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(W::B32))?;
        let b = self.src(opn(2)?, K::I(W::B32))?;
        let c = self.src(opn(3)?, K::I(W::B32))?;
        self.emit_def(
            dd,
            Op::Prmt {
                d: dd,
                a,
                b,
                c,
                mode: m.prmt,
            },
        );
        Ok(())
    }

    pub(super) fn ibin(&mut self, f: IBin, w: W, _t: Type) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let kb = match f {
            IBin::Shl | IBin::ShrS | IBin::ShrU | IBin::BmskClamp | IBin::BmskWrap => K::I(W::B32),
            _ => K::I(w),
        };
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, kb)?;
        self.emit_def(
            dd,
            Op::Bin {
                f: BinF::Int(f, w),
                d: dd,
                a,
                b,
            },
        );
        Ok(())
    }

    pub(super) fn itern(&mut self, f: ITern, w: W, kb: K, kc: K) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let ka = match f {
            ITern::Dp4a { .. } | ITern::Dp2a { .. } | ITern::Fns => K::I(W::B32),
            _ => K::I(w),
        };
        let a = self.src(ops.get(1).ok_or("missing operand")?, ka)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, kb)?;
        let c = self.src(ops.get(3).ok_or("missing operand")?, kc)?;
        self.emit_def(
            dd,
            Op::Tern {
                f: TernF::Int(f, w),
                d: dd,
                a,
                b,
                c,
            },
        );
        Ok(())
    }

    pub(super) fn iun(&mut self, f: IUn, w: W, _t: Type) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        self.emit_def(
            dd,
            Op::Un {
                f: UnF::Int(f, w),
                d: dd,
                a,
            },
        );
        Ok(())
    }

    pub(super) fn fmods(&self) -> FMods {
        let m = self.f.insts[self.cur_inst].mods;
        FMods {
            rnd: rnd_of(m.rounding),
            ftz: m.has(Flags::FTZ),
            sat: m.has(Flags::SAT),
            relu: m.has(Flags::RELU),
        }
    }

    pub(super) fn fk(ft: FTy) -> K {
        match ft {
            FTy::F16 => K::F16,
            FTy::Bf16 => K::Bf16,
            FTy::F16x2 | FTy::Bf16x2 => K::I(W::B32),
            FTy::F32 => K::F32,
            FTy::F64 => K::F64,
        }
    }

    pub(super) fn fbin(&mut self, op: FBin, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let k = Self::fk(ft);
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        if matches!(op, FBin::DivApprox | FBin::DivFull) && ft != FTy::F32 {
            return Err("div.approx/div.full need .f32".into());
        }
        let f = match ft {
            FTy::F32 if mods == FMods::RN && !matches!(op, FBin::DivApprox | FBin::DivFull) => {
                BinF::F32Fast(op)
            }
            FTy::F64 if mods == FMods::RN => BinF::F64Fast(op),
            _ => BinF::Float(op, ft, mods),
        };
        self.emit_def(dd, Op::Bin { f, d: dd, a, b });
        Ok(())
    }

    /// `add`/`sub` whose operand `pos` is the product of `mul`, evaluated as one fused
    /// multiply-add (as ptxas compiles it): x + a·b, x − a·b = fma(−a, b, x),
    /// a·b − x = fma(a, b, −x).
    pub(super) fn contracted_fma(&mut self, mul: Inst, pos: usize, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let is_sub = self.f.insts[self.cur_inst].op == Opcode::Sub;
        let mops = self.f.insts[mul].operands.clone();
        let mods = self.fmods();
        let k = Self::fk(ft);
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(mops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(mops.get(2).ok_or("missing operand")?, k)?;
        let other = if pos == 1 { 2 } else { 1 };
        let c = self.src(ops.get(other).ok_or("missing operand")?, k)?;
        let (neg_ab, neg_c) = match (is_sub, pos) {
            (false, _) => (false, false),
            (true, 2) => (true, false),
            (true, _) => (false, true),
        };
        self.emit_def(
            dd,
            Op::Tern {
                f: TernF::Contracted {
                    ty: ft,
                    ftz: mods.ftz,
                    neg_ab,
                    neg_c,
                },
                d: dd,
                a,
                b,
                c,
            },
        );
        Ok(())
    }

    pub(super) fn fma(&mut self, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let k = Self::fk(ft);
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        let c = self.src(ops.get(3).ok_or("missing operand")?, k)?;
        let f = match ft {
            FTy::F32 if mods == FMods::RN => TernF::Fma32Fast,
            FTy::F64 if mods == FMods::RN => TernF::Fma64Fast,
            _ => TernF::Fma(ft, mods),
        };
        self.emit_def(dd, Op::Tern { f, d: dd, a, b, c });
        Ok(())
    }

    pub(super) fn carry(&mut self, op: CarryOp, t: Type, cin: bool, cout: bool) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let w = w_of(t).ok_or("bad type")?;
        if !matches!(w, W::B32 | W::B64) {
            return Err("carry arithmetic needs 32 or 64 bits".into());
        }
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, K::I(w))?;
        let c = match op {
            CarryOp::MadLo | CarryOp::MadHi => {
                self.src(ops.get(3).ok_or("missing operand")?, K::I(w))?
            }
            _ => NONE,
        };
        self.emit(Op::Carry {
            op,
            w,
            cin,
            cout,
            d: dd,
            a,
            b,
            c,
        });
        Ok(())
    }

    pub(super) fn setp(&mut self, is_set: bool) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let cmpop = m.cmp.ok_or("missing comparison")?;
        let ct_ty = if is_set {
            m.ty2.ok_or("set needs a compare type")?
        } else {
            m.ty.ok_or("missing type")?
        };
        let ftz = m.has(Flags::FTZ);
        let unsigned = !ct_ty.is_signed_int();
        let cmp = cmp_of(cmpop, unsigned);
        let comb = if let Some(bop) = m.bool_op {
            let last = ops.last().ok_or("missing operand")?;
            let (p, neg) = self.src_pred(last)?;
            Some(Combine { op: bop, p, neg })
        } else {
            None
        };
        if matches!(ct_ty, Type::F16x2 | Type::Bf16x2) {
            if is_set {
                return Err("set on packed halves is not supported".into());
            }
            let (p, q) = match &ops[0] {
                Operand::RegPair(a, b) => (self.pred(*a)?, self.pred(*b)?),
                o => (self.dst_pred(o)?, NONE),
            };
            let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(W::B32))?;
            let b = self.src(ops.get(2).ok_or("missing operand")?, K::I(W::B32))?;
            self.emit(Op::SetpX2 {
                bf16: ct_ty == Type::Bf16x2,
                cmp,
                p,
                q,
                a,
                b,
                comb,
            });
            return Ok(());
        }
        let ty = cmp_ty(ct_ty, ftz, false).ok_or("bad compare type")?;
        let k = k_of(ct_ty).ok_or("bad compare type")?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        if is_set {
            let dt = m.ty.ok_or("missing type")?;
            let out = match dt {
                Type::F32 => SetOut::F32,
                Type::F16 => SetOut::F16,
                Type::Bf16 => SetOut::Bf16,
                Type::F16x2 => SetOut::F16x2,
                Type::Bf16x2 => SetOut::Bf16x2,
                t => SetOut::Mask(w_of(t).ok_or("bad type")?),
            };
            let dd = self.dst(&ops[0])?;
            self.emit_def(
                dd,
                Op::Set {
                    ty,
                    cmp,
                    out,
                    d: dd,
                    a,
                    b,
                    comb,
                },
            );
            return Ok(());
        }
        let (p, q) = match &ops[0] {
            Operand::RegPair(a, b) => (self.pred(*a)?, self.pred(*b)?),
            o => (self.dst_pred(o)?, NONE),
        };
        self.emit(Op::Setp {
            ty,
            cmp,
            p,
            q,
            a,
            b,
            comb,
        });
        Ok(())
    }
}

//! Conversions and special functions: `mov` (including packing and unpacking), `cvt`,
//! and the unary float functions (`rcp`, `sqrt`, `sin`, `ex2`, …) (executed by `exec::convert`).

use super::*;

impl FnTranslator<'_, '_> {
    /// `rcp`, `sqrt`, `rsqrt`, `sin`, `cos`, `lg2`, `ex2`, `tanh`.
    pub(super) fn special_fn(&mut self) -> TResult<()> {
        let d = self.cur();
        let fl = d.mods.flags;
        let name = || inst_name(d);
        use Opcode as O;
        let t = self.ty()?;
        let ft = fty_of(t).ok_or("needs a float type")?;
        let approx = fl.contains(Flags::APPROX);
        let f = match d.op {
            O::Rcp if approx => FUn::RcpApprox,
            O::Rcp => FUn::Rcp,
            O::Sqrt if approx => FUn::SqrtApprox,
            O::Sqrt => FUn::Sqrt,
            O::Rsqrt => FUn::RsqrtApprox,
            O::Sin => FUn::SinApprox,
            O::Cos => FUn::CosApprox,
            O::Lg2 => FUn::Lg2Approx,
            O::Ex2 => FUn::Ex2Approx,
            _ => FUn::TanhApprox,
        };
        let ok = match ft {
            FTy::F32 => true,
            FTy::F64 => {
                matches!(f, FUn::Rcp | FUn::Sqrt | FUn::RcpApprox | FUn::RsqrtApprox)
            }
            FTy::F16 | FTy::F16x2 => {
                matches!(f, FUn::Ex2Approx | FUn::TanhApprox | FUn::Rcp | FUn::Sqrt)
            }
            FTy::Bf16 | FTy::Bf16x2 => matches!(f, FUn::Ex2Approx | FUn::TanhApprox),
        };
        if !ok {
            return Err(format!("`{}` is not supported", name()));
        }
        self.fun(f, ft)
    }

    pub(super) fn fun(&mut self, f: FUn, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, Self::fk(ft))?;
        self.emit_def(
            dd,
            Op::Un {
                f: UnF::Float(f, ft, mods),
                d: dd,
                a,
            },
        );
        Ok(())
    }

    pub(super) fn mov(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let t = self.ty()?;
        let dst = ops.first().ok_or("missing operand")?;
        let src = ops.get(1).ok_or("missing operand")?;
        if t == Type::Pred {
            let p = self.dst_pred(dst)?;
            match src {
                Operand::Imm(_) | Operand::UImm(_) => {
                    let v = !matches!(src, Operand::Imm(0) | Operand::UImm(0));
                    self.emit_def(p, Op::PConst { p, v });
                }
                _ => {
                    let (a, neg) = self.src_pred(src)?;
                    self.emit_def(p, Op::PMov { p, a, neg });
                }
            }
            return Ok(());
        }
        let k = k_of(t).ok_or("bad type")?;
        match (dst, src) {
            (Operand::Vector(ds), _) => {
                // Unpack.
                let n = ds.len();
                if !(2..=4).contains(&n) {
                    return Err("vector mov needs 2 to 4 elements".into());
                }
                let total = t.size_bytes() * 8;
                let ew = total / n as u32;
                let a = self.src(src, K::I(w_of(t).ok_or("bad type")?))?;
                let mut arr = [NONE; 4];
                for (i, o) in ds.iter().enumerate() {
                    arr[i] = self.dst(o)?;
                }
                self.emit(Op::Unpack {
                    ds: arr,
                    n: n as u8,
                    ew: ew as u8,
                    a,
                });
            }
            (_, Operand::Vector(ss)) => {
                let n = ss.len();
                if !(2..=4).contains(&n) {
                    return Err("vector mov needs 2 to 4 elements".into());
                }
                let total = t.size_bytes() * 8;
                let ew = total / n as u32;
                let ek = K::I(W::from_bytes(ew / 8).ok_or("bad element width")?);
                let mut arr = [NONE; 4];
                for (i, o) in ss.iter().enumerate() {
                    arr[i] = self.src(o, ek)?;
                }
                let dd = self.dst(dst)?;
                self.emit_def(
                    dd,
                    Op::Pack {
                        d: dd,
                        srcs: arr,
                        n: n as u8,
                        ew: ew as u8,
                    },
                );
            }
            _ => {
                let dd = self.dst(dst)?;
                let a = self.src(src, k)?;
                if dd != NONE {
                    // A register narrower than its source keeps only its own bits.
                    let bits = match dst {
                        Operand::Reg(r) => self.reg_bits(*r),
                        _ => 64,
                    };
                    if bits < 64 && matches!(src, Operand::Reg(_)) && k != K::I(W::B64) {
                        let w = W::from_bytes(u32::from(bits) / 8).unwrap_or(W::B64);
                        self.emit(Op::Un {
                            f: UnF::Zext(w),
                            d: dd,
                            a,
                        });
                    } else {
                        self.emit(Op::Mov { d: dd, a });
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn cvt(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let to_t = m.ty.ok_or("cvt needs two types")?;
        let from_t = m.ty2.ok_or("cvt needs two types")?;
        let fl = m.flags;
        let num = |t: Type| -> TResult<NumTy> {
            Ok(match t {
                Type::F16 => NumTy::F16,
                Type::Bf16 => NumTy::Bf16,
                Type::Tf32 => NumTy::Tf32,
                Type::F32 => NumTy::F32,
                Type::F64 => NumTy::F64,
                t if !t.is_float() && t != Type::Pred => NumTy::Int {
                    w: w_of(t).ok_or("bad integer type")?,
                    signed: t.is_signed_int(),
                },
                t => return Err(format!("cvt with .{t} is not supported")),
            })
        };
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        // Two-source packing conversions.
        if matches!(to_t, Type::F16x2 | Type::Bf16x2) {
            if from_t != Type::F32 {
                return Err(format!("cvt.{to_t}.{from_t} is not supported"));
            }
            let a = self.src(ops.get(1).ok_or("missing operand")?, K::F32)?;
            let b = self.src(ops.get(2).ok_or("missing operand")?, K::F32)?;
            let mods = FMods {
                rnd: rnd_of(m.rounding),
                ftz: false,
                sat: fl.contains(Flags::SATFINITE),
                relu: fl.contains(Flags::RELU),
            };
            self.emit_def(
                dd,
                Op::Bin {
                    f: BinF::CvtPair {
                        bf16: to_t == Type::Bf16x2,
                        mods,
                    },
                    d: dd,
                    a,
                    b,
                },
            );
            return Ok(());
        }
        let to = num(to_t)?;
        let from = num(from_t)?;
        let from_k = k_of(from_t).ok_or("bad type")?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, from_k)?;
        if dd == NONE {
            return Ok(());
        }
        let sat = fl.contains(Flags::SAT);
        let ftz = fl.contains(Flags::FTZ);
        // Fast paths.
        if let (NumTy::Int { w: tw, .. }, NumTy::Int { w: fw, signed: fs }) = (to, from)
            && !sat
        {
            let f = if tw.bits() <= fw.bits() || !fs {
                UnF::Zext(if tw.bits() <= fw.bits() { tw } else { fw })
            } else {
                UnF::Sext { from: fw, to: tw }
            };
            self.emit(Op::Un { f, d: dd, a });
            return Ok(());
        }
        if to == from && matches!(to, NumTy::F32 | NumTy::F64 | NumTy::F16 | NumTy::Bf16) {
            let ft = match to {
                NumTy::F32 => FTy::F32,
                NumTy::F64 => FTy::F64,
                NumTy::F16 => FTy::F16,
                _ => FTy::Bf16,
            };
            let int_round = matches!(
                m.rounding,
                Some(Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi)
            );
            let f = if int_round { FUn::RoundInt } else { FUn::Ident };
            self.emit(Op::Un {
                f: UnF::Float(
                    f,
                    ft,
                    FMods {
                        rnd: rnd_of(m.rounding),
                        ftz,
                        sat,
                        relu: false,
                    },
                ),
                d: dd,
                a,
            });
            return Ok(());
        }
        let rnd = match (m.rounding, to, from) {
            (Some(r), _, _) => rnd_of(Some(r)),
            // Float to integer without a rounding modifier truncates.
            (None, NumTy::Int { .. }, _) => Rnd::Rz,
            _ => Rnd::Rn,
        };
        self.emit(Op::Un {
            f: UnF::Cvt(CvtSpec {
                to,
                from,
                rnd,
                sat,
                ftz,
                relu: fl.contains(Flags::RELU),
                satfinite: fl.contains(Flags::SATFINITE),
            }),
            d: dd,
            a,
        });
        Ok(())
    }
}

use super::*;

#[test]
fn int_ops() {
    assert_eq!(ibin(IBin::Add, 32, 0xffff_ffff, 1), 0);
    assert_eq!(ibin(IBin::AddSat, 32, 0x7fff_ffff, 1), 0x7fff_ffff);
    assert_eq!(ibin(IBin::SubSat, 32, 0x8000_0000, 1), 0x8000_0000);
    assert_eq!(
        ibin(IBin::MulHiS, 32, (-2i32) as u32 as u64, 3),
        0xffff_ffff
    );
    assert_eq!(ibin(IBin::MulHiU, 32, 0xffff_ffff, 2), 1);
    assert_eq!(
        ibin(IBin::MulWideS, 32, (-2i32) as u32 as u64, 3),
        (-6i64) as u64
    );
    assert_eq!(ibin(IBin::MulWideU, 32, 0xffff_ffff, 2), 0x1_ffff_fffe);
    assert_eq!(ibin(IBin::MulHiU, 64, u64::MAX, u64::MAX), u64::MAX - 1);
    assert_eq!(ibin(IBin::Shl, 32, 1, 32), 0);
    assert_eq!(ibin(IBin::ShrS, 32, 0x8000_0000, 40), 0xffff_ffff);
    assert_eq!(ibin(IBin::ShrU, 16, 0x8000, 15), 1);
    assert_eq!(ibin(IBin::DivS, 32, 0x8000_0000, 0xffff_ffff), 0x8000_0000);
    assert_eq!(ibin(IBin::DivU, 32, 7, 0), 0xffff_ffff);
    assert_eq!(
        ibin(IBin::RemS, 32, (-7i32) as u32 as u64, 2),
        (-1i32) as u32 as u64
    );
    assert_eq!(ibin(IBin::MinS, 32, 0xffff_ffff, 1), 0xffff_ffff);
    assert_eq!(ibin(IBin::MinU, 32, 0xffff_ffff, 1), 1);
    assert_eq!(ibin(IBin::Mul24LoU, 32, 0x100_0001, 2), 2);
    assert_eq!(ibin(IBin::BmskClamp, 32, 4, 4), 0xf0);
}

#[test]
fn bit_ops() {
    assert_eq!(iun(IUn::Popc, 32, 0xf0f0), 8);
    assert_eq!(iun(IUn::Clz, 32, 1), 31);
    assert_eq!(iun(IUn::Clz, 64, 1), 63);
    assert_eq!(iun(IUn::Clz, 32, 0), 32);
    assert_eq!(iun(IUn::Brev, 32, 1), 0x8000_0000);
    assert_eq!(iun(IUn::BfindU, 32, 0x10), 4);
    assert_eq!(iun(IUn::BfindU, 32, 0), 0xffff_ffff);
    assert_eq!(iun(IUn::BfindS, 32, 0xffff_ffff), 0xffff_ffff);
    assert_eq!(iun(IUn::BfindS, 32, 0xffff_fff0), 3);
    assert_eq!(iun(IUn::BfindShU, 32, 0x10), 27);
    assert_eq!(itern(ITern::BfeU, 32, 0xabcd, 4, 8), 0xbc);
    assert_eq!(itern(ITern::BfeS, 32, 0x00f0, 4, 4), 0xffff_ffff);
    assert_eq!(itern(ITern::BfeS, 32, 0x80000000, 31, 5), 0xffff_ffff);
    assert_eq!(
        itern(ITern::ShfL { clamp: false }, 32, 0x8000_0000, 1, 1),
        3
    );
    assert_eq!(itern(ITern::ShfR { clamp: true }, 32, 0, 1, 40), 1);
    assert_eq!(
        itern(ITern::ShfR { clamp: false }, 32, 0, 1, 4),
        0x1000_0000
    );
    assert_eq!(bfi(32, 0xf, 0, 4, 4), 0xf0);
    assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0x80), 0x80); // a & b & c
    assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0x96), 0xf0 ^ 0xcc ^ 0xaa);
    assert_eq!(prmt(0x33221100, 0x77665544, 0x5410, None), 0x55441100);
    assert_eq!(prmt(0x33221100, 0x77665544, 0x0008, None), 0);
    assert_eq!(prmt(0x332211f0, 0, 0x0008, None), 0xf0f0_f0ff);
    assert_eq!(
        itern(
            ITern::Dp4a {
                a_signed: true,
                b_signed: false
            },
            32,
            0xff01_0203,
            0x0101_0101,
            10
        ),
        10 + 3 + 2 + 1 - 1
    );
    assert_eq!(fns(0b1011_0000, 0, 2), 5);
    assert_eq!(fns(0b1011_0000, 7, -2), 5);
}

#[test]
fn float_minmax_and_cmp() {
    assert_eq!(fminmax(f64::NAN, 1.0, false, false), 1.0);
    assert!(fminmax(f64::NAN, 1.0, false, true).is_nan());
    assert!(fminmax(-0.0, 0.0, false, false).is_sign_negative());
    assert!(!fminmax(-0.0, 0.0, true, false).is_sign_negative());
    assert!(!float_cmp(Cmp::Ne, f64::NAN, 1.0));
    assert!(float_cmp(Cmp::Neu, f64::NAN, 1.0));
    assert!(compare(CmpTy::S(W::B32), Cmp::Lt, 0xffff_ffff, 0));
    assert!(!compare(CmpTy::U(W::B32), Cmp::Lt, 0xffff_ffff, 0));
}

#[test]
fn conversions() {
    let s = |to, from, rnd, sat| CvtSpec {
        to,
        from,
        rnd,
        sat,
        ftz: false,
        relu: false,
        satfinite: false,
    };
    let f32t = NumTy::F32;
    let s32 = NumTy::Int {
        w: W::B32,
        signed: true,
    };
    let u8t = NumTy::Int {
        w: W::B8,
        signed: false,
    };
    let nan = u64::from(f32::NAN.to_bits());
    assert_eq!(cvt(s(s32, f32t, Rnd::Rz, false), nan), 0);
    assert_eq!(
        cvt(s(s32, f32t, Rnd::Rz, false), u64::from(3e10f32.to_bits())),
        0x7fff_ffff
    );
    assert_eq!(
        cvt(s(s32, f32t, Rnd::Rm, false), u64::from((-1.5f32).to_bits())),
        (-2i32) as u32 as u64
    );
    assert_eq!(cvt(s(u8t, s32, Rnd::Rn, true), (-5i32) as u32 as u64), 0);
    assert_eq!(cvt(s(u8t, s32, Rnd::Rn, true), 300), 255);
    assert_eq!(cvt(s(u8t, s32, Rnd::Rn, false), 300), 44);
    assert_eq!(
        cvt(
            s(NumTy::F16, f32t, Rnd::Rn, false),
            u64::from(1.0f32.to_bits())
        ),
        0x3c00
    );
    assert_eq!(
        cvt(s(f32t, NumTy::F16, Rnd::Rn, false), 0x3c00),
        u64::from(1.0f32.to_bits())
    );
    assert_eq!(
        cvt(s(f32t, NumTy::F64, Rnd::Rz, false), 0.1f64.to_bits()),
        u64::from(0.099_999_994f32.to_bits())
    );
    assert_eq!(
        cvt(s(f32t, s32, Rnd::Rn, false), 16777217),
        u64::from(16777216f32.to_bits())
    );
    assert_eq!(
        cvt_pair(false, FMods::RN, u64::from(1.0f32.to_bits()), 0),
        0x3c00_0000
    );
}

#[test]
fn half_arithmetic() {
    let one = 0x3c00u64;
    let two = 0x4000u64;
    assert_eq!(fbin(FBin::Add, FTy::F16, FMods::RN, one, one), two);
    assert_eq!(
        fbin(
            FBin::Add,
            FTy::F16x2,
            FMods::RN,
            (one << 16) | one,
            (one << 16) | two
        ),
        (two << 16) | 0x4200
    );
    assert_eq!(ffma(FTy::F16, FMods::RN, two, two, one), 0x4500);
    let bone = 0x3f80u64;
    assert_eq!(fbin(FBin::Mul, FTy::Bf16, FMods::RN, bone, bone), bone);
    // Saturation.
    let m = FMods {
        sat: true,
        ..FMods::RN
    };
    assert_eq!(
        fbin(
            FBin::Add,
            FTy::F32,
            m,
            u64::from(1.0f32.to_bits()),
            u64::from(1.0f32.to_bits())
        ),
        u64::from(1.0f32.to_bits())
    );
}

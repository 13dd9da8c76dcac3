//! Property tests: generated instructions survive print → parse; arbitrary and mutated
//! inputs never panic.

mod common;

use proptest::prelude::*;
use warpscope_ptx::*;

/// Every modifier spelling the parser knows (without the dot).
fn modifier_vocabulary() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    v.extend(Type::ALL.iter().map(|t| t.as_str().to_string()));
    v.extend(
        StateSpace::ALL
            .iter()
            .filter(|s| **s != StateSpace::Generic)
            .map(|s| s.as_str().to_string()),
    );
    v.extend(Rounding::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(CmpOp::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(BoolOp::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(CacheOp::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(L1Evict::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(L2Evict::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(L2Prefetch::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(CacheLevel::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(Scope::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(MemOrder::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(AtomOp::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(ShflMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(VoteMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(MulMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(TestpOp::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(PrmtMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(Layout::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(Geom::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(Component::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(ClampMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(MatrixCount::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(LoadMode::ALL.iter().map(|x| x.as_str().to_string()));
    v.extend(Flags::NAMES.iter().map(|(_, n)| n.to_string()));
    v.extend(["v2", "v4", "v8", "gl", "m16n8k16", "m8n8", "m64n128k16"].map(String::from));
    v
}

fn reg() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "%r1", "%r23", "%rd4", "%f0", "%fd9", "%p1", "%rs2", "p", "q",
    ])
}

fn symbol() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "sym",
        "$L__BB0_1",
        "param0",
        "retval0",
        "_Z3fooi",
        "__local_depot0",
    ])
}

fn scalar() -> impl Strategy<Value = Operand<'static>> {
    prop_oneof![
        reg().prop_map(Operand::Reg),
        (
            prop::sample::select(vec![
                SpecialReg::Tid,
                SpecialReg::Ntid,
                SpecialReg::Ctaid,
                SpecialReg::Laneid,
                SpecialReg::Clock64,
                SpecialReg::EnvReg(3),
                SpecialReg::Pm64(2),
                SpecialReg::LanemaskLt,
            ]),
            prop::option::of(prop::sample::select(vec![Dim::X, Dim::Y, Dim::Z])),
        )
            .prop_map(|(s, d)| Operand::SpecialReg(s, if s.has_components() { d } else { None })),
        any::<i64>().prop_map(Operand::Imm),
        any::<u64>().prop_map(Operand::UImm),
        any::<u32>().prop_map(Operand::FImm32),
        any::<u64>().prop_map(Operand::FImm64),
        symbol().prop_map(Operand::Symbol),
        Just(Operand::Sink),
        reg().prop_map(Operand::Negated),
        (reg(), reg()).prop_map(|(a, b)| Operand::PredPair(a, b)),
    ]
}

fn operand() -> impl Strategy<Value = Operand<'static>> {
    prop_oneof![
        4 => scalar(),
        1 => (reg(), any::<i64>()).prop_map(|(r, o)| Operand::Address(Address { base: AddrBase::Reg(r), offset: o })),
        1 => (symbol(), -64i64..64).prop_map(|(s, o)| Operand::Address(Address { base: AddrBase::Symbol(s), offset: o })),
        1 => any::<i64>().prop_map(|v| Operand::Address(Address { base: AddrBase::Imm(v), offset: 0 })),
        1 => prop::collection::vec(scalar(), 1..5).prop_map(|v| Operand::Vector(v.into_boxed_slice())),
        1 => prop::collection::vec(scalar(), 0..4).prop_map(|v| Operand::List(v.into_boxed_slice())),
        1 => (symbol(), prop::collection::vec(reg().prop_map(Operand::Reg), 1..4)).prop_map(|(s, v)| {
            Operand::AddressList(vec![Operand::Symbol(s), Operand::Vector(v.into_boxed_slice())].into_boxed_slice())
        }),
    ]
}

fn wrap(instr: &str) -> String {
    format!(
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n\t.reg .pred p, q;\n\t{instr}\n}}\n"
    )
}

fn only_instruction<'m, 'a>(m: &'m Module<'a>) -> Option<&'m Instruction<'a>> {
    let f = m.functions().next()?;
    f.body.as_ref()?.iter().find_map(|s| match s {
        Statement::Instruction(i) => Some(i),
        _ => None,
    })
}

/// Every distinct mnemonic-with-modifiers text (`ld.global.nc.v4.f32`, ...) of the samples,
/// exactly as written there.
fn sample_mnemonics() -> Vec<String> {
    let mut v = Vec::new();
    for path in common::sample_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let (m, _) = parse(&src);
        fn walk(src: &str, stmts: &[Statement<'_>], out: &mut Vec<String>) {
            for s in stmts {
                match s {
                    Statement::Instruction(i) => {
                        let text = &src[i.span.range()];
                        let text = if i.guard.is_some() {
                            text.split_once(char::is_whitespace)
                                .map_or("", |(_, r)| r)
                                .trim_start()
                        } else {
                            text
                        };
                        let mnemonic = text
                            .split(|c: char| c.is_whitespace() || c == ';' || c == '{' || c == '[')
                            .next()
                            .unwrap_or("");
                        out.push(mnemonic.to_string());
                    }
                    Statement::Scope(inner) => walk(src, inner, out),
                    _ => {}
                }
            }
        }
        for f in m.functions() {
            if let Some(b) = &f.body {
                walk(&src, b, &mut v);
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Real mnemonics from the samples with random operands: always parse, and survive
    /// print → parse unchanged.
    #[test]
    fn sample_mnemonic_round_trip(
        mnemonic in prop::sample::select(sample_mnemonics()),
        guard in prop::option::of((reg(), any::<bool>())),
        operands in prop::collection::vec(operand(), 0..6),
    ) {
        let mut text = String::new();
        if let Some((r, neg)) = guard {
            text.push_str(&format!("@{}{} ", if neg { "!" } else { "" }, r));
        }
        text.push_str(&mnemonic);
        for (i, o) in operands.iter().enumerate() {
            text.push_str(if i == 0 { " " } else { ", " });
            text.push_str(&o.to_string());
        }
        text.push(';');
        let src = wrap(&text);
        let (m1, errors) = parse(&src);
        prop_assert!(errors.is_empty(), "{}: {}", text, render_errors("p", &src, &errors));
        let i1 = only_instruction(&m1).expect("instruction");
        prop_assert_eq!(&i1.operands[..], &operands[..]);
        // ptxas accepts several modifier orders; the printer picks the ISA grammar order.
        let printed = i1.to_string();
        let src2 = wrap(&printed);
        let (m2, errors2) = parse(&src2);
        prop_assert!(errors2.is_empty(), "{} -> {}", text, printed);
        let i2 = only_instruction(&m2).expect("instruction");
        prop_assert_eq!(i1.op, i2.op);
        prop_assert_eq!(i1.mods, i2.mods, "{} -> {}", text, printed);
        prop_assert_eq!(format!("{:?}", i1.operands), format!("{:?}", i2.operands));
    }

    /// Random mnemonic + modifiers + operands: whenever the parser accepts the text, the
    /// operands are read back exactly, and print → parse gives the same instruction.
    #[test]
    fn instruction_round_trip(
        op in prop::sample::select(Opcode::ALL.to_vec()),
        mods in prop::collection::vec(prop::sample::select(modifier_vocabulary()), 0..5),
        guard in prop::option::of((reg(), any::<bool>())),
        operands in prop::collection::vec(operand(), 0..5),
    ) {
        let mut text = String::new();
        if let Some((r, neg)) = guard {
            text.push_str(&format!("@{}{} ", if neg { "!" } else { "" }, r));
        }
        text.push_str(op.name());
        for m in &mods {
            text.push('.');
            text.push_str(m);
        }
        for (i, o) in operands.iter().enumerate() {
            text.push_str(if i == 0 { " " } else { ", " });
            text.push_str(&o.to_string());
        }
        text.push(';');
        let src = wrap(&text);
        let (m1, errors) = parse(&src);
        if errors.is_empty() {
            let i1 = only_instruction(&m1).expect("instruction");
            prop_assert_eq!(i1.op, op);
            prop_assert_eq!(&i1.operands[..], &operands[..], "{}", text);
            let printed = i1.to_string();
            let src2 = wrap(&printed);
            let (m2, errors2) = parse(&src2);
            prop_assert!(errors2.is_empty(), "{} -> {}: {}", text, printed, render_errors("p", &src2, &errors2));
            let i2 = only_instruction(&m2).expect("instruction");
            prop_assert_eq!(i1.op, i2.op);
            prop_assert_eq!(i1.mods, i2.mods, "{} -> {}", text, printed);
            prop_assert_eq!(format!("{:?}", i1.operands), format!("{:?}", i2.operands));
            prop_assert_eq!(format!("{:?}", i1.guard), format!("{:?}", i2.guard));
        }
    }

    /// Arbitrary bytes (lossily decoded) never panic, and diagnostics render.
    #[test]
    fn arbitrary_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let s = String::from_utf8_lossy(&bytes);
        let (_m, errors) = parse(&s);
        let _ = render_errors("x.ptx", &s, &errors);
    }

    /// Token-soup input built from PTX fragments never panics.
    #[test]
    fn token_soup_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        ".version 8.5\n", ".target sm_90\n", ".entry", ".func", ".visible", "k", "(", ")", "{", "}", "[", "]",
        ";", ",", ":", ".reg", ".b32", "%r<4>", "%r1", "add.s32", "ld.global.v4.f32", "0f3F800000", "-", "+",
        "@%p1", "!", "|", "_", "\"s\"", ".param", ".u64", ".align", "8", "=", ".global", ".loc", "1", ".section",
        ".debug_info", "call.uni", ".callprototype", "<", ">", "/*", "*/", "//", "\n", "0x", "99999999999999999999",
        ".branchtargets", "$L", "generic", ".pragma", ".file", ".shared::cta", "{%f1, _}", "[%rd1+-8]",
    ]), 0..80)) {
        let s: String = parts.concat();
        let (_m, errors) = parse(&s);
        let _ = render_errors("x.ptx", &s, &errors);
    }

    /// Mutations of real samples (byte deletions/insertions/duplications) never panic.
    #[test]
    fn mutated_samples_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..40, prop::collection::vec(any::<u8>(), 0..8)), 1..8),
    ) {
        let files = common::sample_files();
        let path = which.get(&files);
        let mut bytes = std::fs::read(path).unwrap();
        for (pos, del, ins) in edits {
            let p = pos.index(bytes.len() + 1);
            let end = (p + del).min(bytes.len());
            bytes.splice(p..end, ins);
        }
        let s = String::from_utf8_lossy(&bytes);
        let (m, errors) = parse(&s);
        let _ = render_errors("x.ptx", &s, &errors);
        // Whatever was recovered must still print and re-parse without panicking.
        let printed = m.to_string();
        let _ = parse(&printed);
    }
}

#[test]
fn instruction_is_small() {
    // Keep the hot AST nodes compact (see docs/performance.md).
    let op = std::mem::size_of::<Operand>();
    let ins = std::mem::size_of::<Instruction>();
    let st = std::mem::size_of::<Statement>();
    let mods = std::mem::size_of::<Modifiers>();
    eprintln!("Operand {op}, Modifiers {mods}, Instruction {ins}, Statement {st}");
    assert!(op <= 40, "Operand is {op} bytes");
    assert!(mods <= 48, "Modifiers is {mods} bytes");
    assert!(ins <= 264, "Instruction is {ins} bytes");
    assert!(st <= 264, "Statement is {st} bytes");
}

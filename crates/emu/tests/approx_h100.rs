//! The emulator's approximate-math instructions against the H100's own results.
//!
//! `validation/h100/approx.tsv` was measured on the H100 by `scripts/h100/approx_probe.py`
//! (run by `scripts/h100/device_all.sh`): every instruction below on special values, on its
//! working range and on random bit patterns. The emulator computes each input through the same
//! code path its `ex2.approx.f32` & co. take, and must stay within the bound stated here per
//! instruction; docs/accuracy.md quotes the table this test prints
//! (`cargo test -p warpscope-emu --test approx_h100 -- --nocapture`).

use std::collections::BTreeMap;
use warpscope_emu::alu;
use warpscope_emu::program::{FMods, FTy, FUn};

/// How far the emulator may be from the H100, per instruction.
#[derive(Clone, Copy, Debug)]
enum Bound {
    /// Units in the last place of the f32 result.
    Ulp(u32),
    /// Absolute error (sin/cos, whose relative error is unbounded near their zeros).
    Abs(f64),
    /// Either (lg2: absolute near 1 where the result nears 0, ulps elsewhere).
    UlpOrAbs(u32, f64),
}

fn op(name: &str) -> (FUn, FMods, Bound) {
    let ftz = name.contains(".ftz");
    let mods = FMods { ftz, ..FMods::RN };
    let (f, b) = match name.split('.').next().unwrap() {
        "ex2" => (FUn::Ex2Approx, Bound::Ulp(2)),
        "lg2" => (FUn::Lg2Approx, Bound::UlpOrAbs(1, 2f64.powi(-21))),
        "rcp" => (FUn::RcpApprox, Bound::Ulp(1)),
        "sqrt" => (FUn::SqrtApprox, Bound::Ulp(1)),
        "rsqrt" => (FUn::RsqrtApprox, Bound::Ulp(1)),
        "sin" => (FUn::SinApprox, Bound::Abs(2f64.powi(-21))),
        "cos" => (FUn::CosApprox, Bound::Abs(2f64.powi(-21))),
        "tanh" => (FUn::TanhApprox, Bound::Ulp(128)),
        other => panic!("unknown instruction {other} in approx.tsv"),
    };
    (f, mods, b)
}

/// Distance in f32 ulps (both finite; ±0 equal).
fn ulps(a: f32, b: f32) -> u64 {
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i64::from(i32::MIN) - i64::from(i)
        } else {
            i64::from(i)
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

#[derive(Default)]
struct Stats {
    rows: usize,
    exact: usize,
    max_ulp: u64,
    max_abs: f64,
    /// Largest absolute error among results more than 1 ulp away.
    max_abs_beyond_ulp: f64,
    worst: Option<(u32, u32, u32)>,
    violations: Vec<String>,
}

#[test]
fn approximate_math_matches_the_h100() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../validation/h100/approx.tsv"
    );
    let text = std::fs::read_to_string(path).expect("validation/h100/approx.tsv is committed");
    let mut by_op: BTreeMap<String, Stats> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let mut f = line.split('\t');
        let (Some(name), Some(x), Some(y)) = (f.next(), f.next(), f.next()) else {
            panic!("bad row {line:?}");
        };
        let x = u32::from_str_radix(x, 16).unwrap();
        let hw = u32::from_str_radix(y, 16).unwrap();
        let (fun, mods, bound) = op(name);
        let ours = alu::fun(fun, FTy::F32, mods, u64::from(x)) as u32;
        let s = by_op.entry(name.to_string()).or_default();
        s.rows += 1;
        let (a, b) = (f32::from_bits(ours), f32::from_bits(hw));
        if ours == hw || (a.is_nan() && b.is_nan()) || (a == 0.0 && b == 0.0) {
            s.exact += 1;
            continue;
        }
        let ok = if a.is_finite() && b.is_finite() {
            let u = ulps(a, b);
            let d = (f64::from(a) - f64::from(b)).abs();
            if u > s.max_ulp {
                s.worst = Some((x, ours, hw));
            }
            s.max_ulp = s.max_ulp.max(u);
            s.max_abs = s.max_abs.max(d);
            if u > 1 {
                s.max_abs_beyond_ulp = s.max_abs_beyond_ulp.max(d);
            }
            match bound {
                Bound::Ulp(n) => u <= u64::from(n),
                Bound::Abs(e) => d <= e,
                Bound::UlpOrAbs(n, e) => u <= u64::from(n) || d <= e,
            }
        } else {
            false
        };
        if !ok && s.violations.len() < 5 {
            s.violations.push(format!(
                "{name}({x:08x} = {:e}): emulator {ours:08x} ({a:e}), H100 {hw:08x} ({b:e})",
                f32::from_bits(x)
            ));
        }
    }
    println!("| instruction | inputs | bit-identical | largest difference | bound |");
    println!("|---|---:|---:|---:|---|");
    let mut failures = Vec::new();
    for (name, s) in &by_op {
        let (bound, worst) = match op(name).2 {
            Bound::Ulp(n) => (format!("{n} ulp"), format!("{} ulp", s.max_ulp)),
            Bound::Abs(e) => (
                format!("{e:.2e} absolute"),
                format!("{:.2e} absolute", s.max_abs),
            ),
            Bound::UlpOrAbs(n, e) => (
                format!("{n} ulp, or {e:.2e} absolute"),
                format!(
                    "{} ulp; {:.2e} absolute where more than 1 ulp",
                    s.max_ulp.min(u64::from(n)),
                    s.max_abs_beyond_ulp
                ),
            ),
        };
        println!(
            "| `{name}` | {} | {} ({:.0}%) | {worst} | {bound} |",
            s.rows,
            s.exact,
            100.0 * s.exact as f64 / s.rows as f64
        );
        if let Some((x, o, h)) = s.worst {
            eprintln!("  {name}: worst input {x:08x}: emulator {o:08x}, H100 {h:08x}");
        }
        failures.extend(s.violations.iter().cloned());
    }
    assert!(
        by_op.len() >= 8,
        "approx.tsv covers only {} instructions",
        by_op.len()
    );
    assert!(
        failures.is_empty(),
        "outside the bound:\n{}",
        failures.join("\n")
    );
}

//! BBV estimation from inputs (the paper's section IV-A, equation (1)): for every basic block
//! `b`, `BBV_t[b] = β0 + β1·I_t[1] + … + βp·I_t[p] + βp+1·tid`, fitted by least squares on the
//! profiles of a few training inputs, then evaluated on a new input's values to predict its
//! vectors without running its kernel.
//!
//! The input variables `I_t` of thread `t` (global id `g`) are named on the command line:
//! `BUFFER` is element `g` of a buffer, `BUFFER*K` its `K` elements `K·g … K·g+K−1`. Their
//! values are the buffer's **initial** contents as the spec defines them (`init`), in every
//! spec, training and target alike, so the target's kernel never runs. The fit's error is
//! reported per block on the training threads (RMSE in executions and R²), and, with the target
//! profiled for checking (`--fit-check`), against the target's real vectors.

use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use warpscope_emu::spec::BufferSpec;
use warpscope_emu::{ElemType, LaunchSpec};
use warpscope_profile::bbv::LaunchBbv;
use warpscope_profile::{Profile, load_spec, profile_spec};

use crate::{Estimates, ModelOptions, model_launches};

/// One input variable: `k` consecutive elements of `buffer` per thread.
#[derive(Clone, Debug, Serialize)]
pub struct InputVar {
    pub buffer: String,
    pub per_thread: usize,
}

impl InputVar {
    pub fn parse(s: &str) -> Result<InputVar, String> {
        let (b, k) = match s.split_once('*') {
            Some((b, k)) => (
                b,
                k.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| (1..=64).contains(&k))
                    .ok_or_else(|| format!("--fit-input `{s}`: `{k}` is not a count in 1..=64"))?,
            ),
            None => (s, 1),
        };
        if b.trim().is_empty() {
            return Err(format!("--fit-input `{s}` names no buffer"));
        }
        Ok(InputVar {
            buffer: b.trim().to_string(),
            per_thread: k,
        })
    }
}

/// The fitted model of one basic block.
#[derive(Clone, Debug, Serialize)]
pub struct BlockFit {
    pub function: String,
    pub block: String,
    /// β0 (intercept), one β per input value, then the β of the thread id.
    pub coefficients: Vec<f64>,
    /// Root-mean-square error on the training threads (executions).
    pub rmse: f64,
    /// Coefficient of determination on the training threads (1 when the block's count is
    /// constant and predicted exactly).
    pub r2: f64,
}

/// Predicted against real vectors of the target (when it was profiled to check).
#[derive(Clone, Debug, Serialize)]
pub struct FitCheck {
    /// Mean absolute error of the predicted counts, over threads and blocks (executions).
    pub mean_abs_error: f64,
    /// Estimates from the real vectors.
    pub actual: Estimates,
    /// Relative error of the predicted BBV-weighted-scheduled estimate.
    pub scheduled_error: f64,
}

/// What `warpscope model --fit` reports.
#[derive(Clone, Debug, Serialize)]
pub struct FitReport {
    pub kernel: String,
    pub inputs: Vec<InputVar>,
    /// Training specs and the threads each contributed.
    pub training: Vec<(String, usize)>,
    pub blocks: Vec<BlockFit>,
    /// RMSE over all blocks and training threads.
    pub rmse: f64,
    /// The target spec and its launch's threads.
    pub target: String,
    pub threads: usize,
    /// Estimates from the predicted vectors.
    pub predicted: Estimates,
    pub check: Option<FitCheck>,
}

fn elem_f64(ty: ElemType, b: &[u8]) -> f64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(w);
    match ty {
        ElemType::I8 => f64::from(u as u8 as i8),
        ElemType::I16 => f64::from(u as u16 as i16),
        ElemType::I32 => f64::from(u as u32 as i32),
        ElemType::I64 => u as i64 as f64,
        ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64 => u as f64,
        ElemType::F32 => f64::from(f32::from_bits(u as u32)),
        ElemType::F64 => f64::from_bits(u),
        ElemType::Bf16 => f64::from(f32::from_bits((u as u32) << 16)),
        ElemType::F16 => {
            let h = u as u16;
            let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = i32::from((h >> 10) & 0x1f);
            let m = f64::from(h & 0x3ff);
            sign * match e {
                0 => m * 2f64.powi(-24),
                31 => f64::INFINITY,
                _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
            }
        }
    }
}

/// Per-thread feature rows `[1, inputs…, tid]` of `threads` threads of `spec`.
fn features(spec: &LaunchSpec, vars: &[InputVar], threads: usize) -> Result<Vec<Vec<f64>>, String> {
    let mut cols: Vec<Vec<f64>> = Vec::new();
    for v in vars {
        let b: &BufferSpec = spec
            .buffers
            .iter()
            .find(|b| b.name == v.buffer)
            .ok_or_else(|| format!("{}: no buffer `{}`", spec.path.display(), v.buffer))?;
        let bytes = warpscope_emu::spec::buffer_bytes(b)
            .map_err(|e| format!("{}: buffer `{}`: {e}", spec.path.display(), v.buffer))?;
        let sz = b.ty.size() as usize;
        let need = threads * v.per_thread;
        if (b.len as usize) < need {
            return Err(format!(
                "{}: buffer `{}` has {} elements, {} threads × {} need {need}",
                spec.path.display(),
                v.buffer,
                b.len,
                threads,
                v.per_thread
            ));
        }
        for j in 0..v.per_thread {
            cols.push(
                (0..threads)
                    .map(|t| {
                        let i = (t * v.per_thread + j) * sz;
                        elem_f64(b.ty, &bytes[i..i + sz])
                    })
                    .collect(),
            );
        }
    }
    Ok((0..threads)
        .map(|t| {
            let mut r = Vec::with_capacity(cols.len() + 2);
            r.push(1.0);
            r.extend(cols.iter().map(|c| c[t]));
            r.push(t as f64);
            r
        })
        .collect())
}

/// Solves the normal equations `XᵀX β = Xᵀy` (Gaussian elimination with partial pivoting and a
/// tiny ridge so constant or collinear inputs still give an answer).
fn least_squares(x: &[Vec<f64>], y: &[f64]) -> Vec<f64> {
    let p = x.first().map(Vec::len).unwrap_or(0);
    // scale columns for conditioning
    let mut scale = vec![0.0f64; p];
    for r in x {
        for (s, v) in scale.iter_mut().zip(r) {
            *s = s.max(v.abs());
        }
    }
    scale.iter_mut().for_each(|s| {
        if *s == 0.0 {
            *s = 1.0
        }
    });
    let mut a = vec![vec![0.0f64; p + 1]; p];
    for (r, &yv) in x.iter().zip(y) {
        for i in 0..p {
            let xi = r[i] / scale[i];
            for j in 0..p {
                a[i][j] += xi * r[j] / scale[j];
            }
            a[i][p] += xi * yv;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-9;
    }
    for c in 0..p {
        let piv = (c..p)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, piv);
        let d = a[c][c];
        if d.abs() < 1e-300 {
            continue;
        }
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / d;
                if f != 0.0 {
                    for (x, &y) in row[c..=p].iter_mut().zip(&pivot[c..=p]) {
                        *x -= f * y;
                    }
                }
            }
        }
    }
    (0..p)
        .map(|i| {
            if a[i][i].abs() < 1e-300 {
                0.0
            } else {
                a[i][p] / a[i][i] / scale[i]
            }
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The first profiled launch of `kernel` (or of the first kernel).
fn pick<'a>(
    bbvs: &'a [LaunchBbv],
    module: &warpscope_ir::Module,
    kernel: Option<&str>,
) -> Option<&'a LaunchBbv> {
    bbvs.iter().find(|l| {
        kernel.is_none_or(|k| {
            let n = &module.funcs[l.kernel].name;
            n == k || warpscope_profile::model::display_name(n) == k
        })
    })
}

/// Fits on `train` and predicts `target`'s vectors (see the module docs); `opts.profile`
/// says how to run the training profiles.
pub fn fit_and_predict(
    target: &LaunchSpec,
    train: &[PathBuf],
    inputs: &[String],
    kernel: Option<&str>,
    check_target: bool,
    mut opts: ModelOptions,
) -> Result<FitReport, String> {
    let vars: Vec<InputVar> = inputs
        .iter()
        .map(|s| InputVar::parse(s))
        .collect::<Result<_, _>>()?;
    opts.profile.bbv = true;
    let mut xs: Vec<Vec<f64>> = Vec::new();
    let mut ys: Vec<Vec<u32>> = Vec::new();
    let mut training = Vec::new();
    let mut columns = None;
    let mut module = None;
    let mut kname = String::new();
    for p in train {
        let spec = load_spec(p).map_err(|e| e.to_string())?;
        let run =
            profile_spec(&spec, &opts.profile).map_err(|e| format!("{}: {e}", p.display()))?;
        let bbvs = run.bbv.unwrap_or_default();
        let l = pick(&bbvs, &run.module, kernel).ok_or_else(|| {
            format!(
                "{}: no profiled launch of {}",
                p.display(),
                kernel.unwrap_or("any kernel")
            )
        })?;
        let n = l.threads();
        let cols = l.columns.len();
        match &columns {
            None => columns = Some(l.columns.clone()),
            Some(c) if c.len() == cols => {}
            Some(_) => {
                return Err(format!(
                    "{}: its kernel has different basic blocks than the first training spec's",
                    p.display()
                ));
            }
        }
        kname = run.module.funcs[l.kernel].name.clone();
        xs.extend(features(&spec, &vars, n)?);
        ys.extend(l.counts.chunks_exact(cols.max(1)).map(<[u32]>::to_vec));
        training.push((p.display().to_string(), n));
        module.get_or_insert(run.module);
    }
    let (Some(columns), Some(module)) = (columns, module) else {
        return Err("--fit needs at least one training spec".into());
    };
    let ncols = columns.len();
    let mut blocks = Vec::with_capacity(ncols);
    let mut betas = Vec::with_capacity(ncols);
    let mut sq_all = 0.0;
    for b in 0..ncols {
        let y: Vec<f64> = ys.iter().map(|r| f64::from(r[b])).collect();
        let beta = least_squares(&xs, &y);
        let mean = y.iter().sum::<f64>() / y.len().max(1) as f64;
        let (mut sse, mut sst) = (0.0, 0.0);
        for (r, &yv) in xs.iter().zip(&y) {
            let e = dot(r, &beta) - yv;
            sse += e * e;
            sst += (yv - mean) * (yv - mean);
        }
        sq_all += sse;
        let (f, blk, _) = columns[b];
        let func = &module.funcs[f];
        use cranelift_entity::EntityRef;
        blocks.push(BlockFit {
            function: func.name.clone(),
            block: func.blocks[blk]
                .labels
                .first()
                .cloned()
                .unwrap_or_else(|| format!("block{}", blk.index())),
            coefficients: beta.clone(),
            rmse: (sse / y.len().max(1) as f64).sqrt(),
            r2: if sst > 0.0 {
                1.0 - sse / sst
            } else if sse < 1e-9 {
                1.0
            } else {
                0.0
            },
        });
        betas.push(beta);
    }
    let rmse = (sq_all / (xs.len().max(1) * ncols.max(1)) as f64).sqrt();
    // predict the target from its inputs
    let entry = target
        .launches
        .iter()
        .find(|e| e.kernel == kname || warpscope_profile::model::display_name(&kname) == e.kernel)
        .ok_or_else(|| format!("{}: no launch of `{kname}`", target.path.display()))?;
    let threads: usize = entry
        .grid
        .iter()
        .chain(&entry.block)
        .map(|&x| x as usize)
        .product();
    let tx = features(target, &vars, threads)?;
    let mut counts = Vec::with_capacity(threads * ncols);
    for r in &tx {
        for beta in &betas {
            counts.push(dot(r, beta).round().clamp(0.0, f64::from(u32::MAX)) as u32);
        }
    }
    let kid = module
        .func_by_name(&kname)
        .ok_or_else(|| format!("no kernel `{kname}`"))?;
    let predicted_bbv = LaunchBbv {
        launch: 0,
        kernel: kid,
        grid: entry.grid,
        block: entry.block,
        columns: columns.clone(),
        counts,
    };
    opts.algorithms.clear();
    let pm = model_launches(
        &module,
        &Profile::default(),
        std::slice::from_ref(&predicted_bbv),
        None,
        target,
        &opts,
    );
    let predicted = pm.launches.first().map(|l| l.estimates).unwrap_or_default();
    Ok(FitReport {
        kernel: warpscope_profile::model::display_name(&kname),
        inputs: vars,
        training,
        blocks,
        rmse,
        target: target.path.display().to_string(),
        threads,
        predicted,
        check: if check_target {
            check(
                target,
                kernel.or(Some(&kname)),
                &predicted_bbv,
                predicted,
                &opts,
            )?
        } else {
            None
        },
    })
}

/// Profiles the target to compare prediction and truth, when its launch can be run.
fn check(
    target: &LaunchSpec,
    kernel: Option<&str>,
    predicted: &LaunchBbv,
    pe: Estimates,
    opts: &ModelOptions,
) -> Result<Option<FitCheck>, String> {
    let run = profile_spec(target, &opts.profile).map_err(|e| e.to_string())?;
    let bbvs = run.bbv.unwrap_or_default();
    let Some(l) = pick(&bbvs, &run.module, kernel) else {
        return Ok(None);
    };
    if l.counts.len() != predicted.counts.len() {
        return Ok(None);
    }
    let mae = l
        .counts
        .iter()
        .zip(&predicted.counts)
        .map(|(&a, &b)| (f64::from(a) - f64::from(b)).abs())
        .sum::<f64>()
        / l.counts.len().max(1) as f64;
    let m = model_launches(
        &run.module,
        &Profile::default(),
        std::slice::from_ref(l),
        None,
        target,
        opts,
    );
    let actual = m.launches.first().map(|l| l.estimates).unwrap_or_default();
    Ok(Some(FitCheck {
        mean_abs_error: mae,
        actual,
        scheduled_error: if actual.bbv_weighted_scheduled > 0.0 {
            (pe.bbv_weighted_scheduled - actual.bbv_weighted_scheduled).abs()
                / actual.bbv_weighted_scheduled
        } else {
            0.0
        },
    }))
}

/// Text rendering of a fit.
pub fn text(r: &FitReport) -> String {
    let mut s = String::new();
    let names: Vec<String> = r
        .inputs
        .iter()
        .map(|v| {
            if v.per_thread == 1 {
                format!("{}[g]", v.buffer)
            } else {
                format!("{}[{}g..+{}]", v.buffer, v.per_thread, v.per_thread)
            }
        })
        .collect();
    let _ = writeln!(
        s,
        "BBV model of {} (equation 1: β0 + β·[{}] + β·tid), least squares on {} training thread(s) from {} spec(s)",
        r.kernel,
        names.join(", "),
        r.training.iter().map(|t| t.1).sum::<usize>(),
        r.training.len()
    );
    let _ = writeln!(
        s,
        "fit error: RMSE {:.4} executions per block and thread",
        r.rmse
    );
    for b in &r.blocks {
        let coef: Vec<String> = b.coefficients.iter().map(|c| format!("{c:.4}")).collect();
        let _ = writeln!(
            s,
            "  {}:{:<12} RMSE {:>9.4}  R² {:>7.4}  β = [{}]",
            b.function,
            b.block,
            b.rmse,
            b.r2,
            coef.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "predicted for {} ({} threads), without running its kernel:",
        r.target, r.threads
    );
    let e = &r.predicted;
    let _ = writeln!(
        s,
        "  BBV-weighted {:.0}, BBV-weighted-scheduled {:.0}, no divergence {:.0} cycles",
        e.bbv_weighted, e.bbv_weighted_scheduled, e.no_divergence
    );
    if let Some(c) = &r.check {
        let _ = writeln!(
            s,
            "check against its profile: mean |error| {:.4} executions per block and thread; \
             BBV-weighted-scheduled actual {:.0} cycles, predicted off by {:.2}%",
            c.mean_abs_error,
            c.actual.bbv_weighted_scheduled,
            100.0 * c.scheduled_error
        );
    }
    s
}

/// CSV: one row per basic block.
pub fn csv(r: &FitReport) -> String {
    let mut s = String::from("function,block,rmse,r2,coefficients\n");
    for b in &r.blocks {
        let coef: Vec<String> = b.coefficients.iter().map(|c| format!("{c}")).collect();
        let _ = writeln!(
            s,
            "{},{},{:.6},{:.6},{}",
            b.function,
            b.block,
            b.rmse,
            b.r2,
            coef.join(" ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_linear_count() {
        // y = 3 + 2·I + 0·tid
        let x: Vec<Vec<f64>> = (0..50)
            .map(|t| vec![1.0, f64::from((t * 7) % 11), f64::from(t)])
            .collect();
        let y: Vec<f64> = x.iter().map(|r| 3.0 + 2.0 * r[1]).collect();
        let b = least_squares(&x, &y);
        assert!((b[0] - 3.0).abs() < 1e-6, "{b:?}");
        assert!((b[1] - 2.0).abs() < 1e-6, "{b:?}");
        assert!(b[2].abs() < 1e-6, "{b:?}");
    }

    #[test]
    fn input_variables_parse() {
        let v = InputVar::parse("cnt*3").unwrap();
        assert_eq!((v.buffer.as_str(), v.per_thread), ("cnt", 3));
        assert!(InputVar::parse("cnt*0").is_err());
        assert!(InputVar::parse("*2").is_err());
    }
}

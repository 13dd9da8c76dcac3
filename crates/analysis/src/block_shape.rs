//! The block shape of a kernel nobody gave one for.
//!
//! When no flag, configuration, `.reqntid`/`.maxntid` or launch site gave the block and the
//! kernel reads `%tid.y` (or `%tid.z`), GPUCheck's 256×1×1 would make every `ty` test uniform.
//! Instead:
//!
//! 1. a kernel that reads `%tid.y` and `%tid.z` only inside its linear thread rank
//!    `tid.x + ntid.x·(tid.y + ntid.y·tid.z)` (cooperative groups' `thread_rank()`, written
//!    to give the same value in every shape) has no 2-D indexing of its own: its other reads
//!    of `%tid.x` alone are its thread index, which is the whole index only in a 1-D block,
//!    so it keeps the 1-D default ([`GeometrySource::LinearRank`]); a test `tid.x + tid.y +
//!    tid.z == 0` (the block's first thread, in any shape) reads no shape either;
//! 2. a shared array indexed `[tid.y][tid.x]` (address `base + R·e·tid.y + e·tid.x` for
//!    `e`-byte elements) says the block is `R×R` (or `(R−1)×(R−1)` for a tile padded by one
//!    column against bank conflicts, `(R−2)×(R−2)` for a halo of one on each side);
//! 3. otherwise the kernel is analysed in each of a few common 2-D shapes, and every finding
//!    says which shapes it needs ([`merge_findings`]).

use crate::KernelAnalysis;
use crate::acf::{AccessSite, Acf, BranchSite};
use crate::expr::{Atom, Kind, Node, flags};
use crate::geometry::{Geometry, GeometrySource};
use crate::poly::{Monomial, Poly};
use cranelift_entity::EntityRef;
use rustc_hash::FxHashSet;
use warpscope_ptx::{CmpOp, Dim};
use warpscope_report::{Certainty, Finding};

/// The shapes tried when nothing gives a 2-D kernel's block.
pub const COMMON_SHAPES: [[u32; 3]; 3] = [[16, 16, 1], [32, 8, 1], [32, 32, 1]];

/// The geometries to analyse a kernel in: `given` itself unless it is the default and the
/// kernel reads `%tid.y`/`%tid.z` outside its linear thread rank.
pub fn candidates(
    given: &Geometry,
    acf: &Acf,
    branches: &[BranchSite],
    accesses: &[AccessSite],
) -> Vec<Geometry> {
    if given.block_source != GeometrySource::Default || !reads_tid_yz(acf) {
        return vec![given.clone()];
    }
    let roots: Vec<Node> = branches
        .iter()
        .flat_map(|b| [b.cond, b.active])
        .chain(accesses.iter().flat_map(|a| [a.addr, a.active]))
        .collect();
    if !indexes_tid_yz(acf, &roots) {
        return vec![Geometry {
            block_source: GeometrySource::LinearRank,
            ..given.clone()
        }];
    }
    if let Some(row) = shared_tile_row(acf, accesses) {
        let side = tile_side(row);
        return vec![Geometry {
            block: [side, side, 1],
            block_source: GeometrySource::SharedTile { row },
            ..given.clone()
        }];
    }
    COMMON_SHAPES
        .iter()
        .map(|&block| Geometry {
            block,
            block_source: GeometrySource::CommonShape,
            ..given.clone()
        })
        .collect()
}

/// Whether any expression of the kernel reads `%tid.y` or `%tid.z`.
fn reads_tid_yz(acf: &Acf) -> bool {
    (0..acf.len()).any(|i| {
        matches!(
            acf.kind(Node::new(i)),
            Kind::Atom(Atom::Tid(Dim::Y | Dim::Z))
        )
    })
}

/// Whether a branch condition or an address under `roots` reads `%tid.y` or `%tid.z`
/// anywhere but inside the linear thread rank (see [`is_linear_rank`]): each arithmetic
/// expression met is read as its canonical polynomial (a comparison as the difference of its
/// operands), and the operands of its non-arithmetic atoms (divisions, loads' addresses,
/// ...) are read the same way.
fn indexes_tid_yz(acf: &Acf, roots: &[Node]) -> bool {
    let tid = |d: Dim| {
        (0..acf.len())
            .map(Node::new)
            .find(|&n| acf.kind(n) == Kind::Atom(Atom::Tid(d)))
    };
    let ntid = |d: Dim| {
        (0..acf.len())
            .map(Node::new)
            .find(|&n| acf.kind(n) == Kind::Atom(Atom::Ntid(d)))
    };
    let dims = RankAtoms {
        tid: [tid(Dim::X), tid(Dim::Y), tid(Dim::Z)],
        ntid: [ntid(Dim::X), ntid(Dim::Y)],
    };
    let mut seen: FxHashSet<Node> = FxHashSet::default();
    let mut stack: Vec<Node> = roots.to_vec();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) || acf.flags(n) & flags::TID == 0 {
            continue;
        }
        // A comparison reads the difference of its operands: nvcc tests `rank == 0` as
        // `ntid.x·(tid.y + ntid.y·tid.z) != -tid.x`.
        let p = match acf.kind(n) {
            Kind::Cmp(c, a, b) => {
                let d = acf.poly(a).add(&acf.poly(b).neg());
                if matches!(c.op, CmpOp::Eq | CmpOp::Ne) && is_first_thread_test(&d, &dims) {
                    continue;
                }
                d
            }
            _ => acf.poly(n),
        };
        let yz = |m: &Monomial| {
            m.iter()
                .any(|a| Some(*a) == dims.tid[1] || Some(*a) == dims.tid[2])
        };
        if p.terms.keys().any(yz) && !is_linear_rank(&p, &dims) {
            return true;
        }
        for m in p.terms.keys() {
            for &a in m {
                match acf.kind(a) {
                    Kind::Atom(Atom::Tid(_) | Atom::Ntid(_)) => {}
                    Kind::Cmp(..) => stack.push(a),
                    // `a` is no sum or product: its operands are expressions of their own.
                    _ => stack.extend(acf.children(a)),
                }
            }
        }
    }
    false
}

/// The `%tid` and `%ntid` atoms of one kernel's ACF (`None` where it never reads one).
struct RankAtoms {
    tid: [Option<Node>; 3],
    ntid: [Option<Node>; 2],
}

/// Whether the thread-index terms of `p` are `c · (tid.x + ntid.x·tid.y + ntid.x·ntid.y·tid.z)`
/// for some cofactor `c` (a constant or a product of other atoms, the same in each of the
/// three terms): the linear thread rank, which is the same thread's number in every block
/// shape (warps are 32 consecutive ranks). The `tid.z` term must be there: a flat index
/// `ty·ntid.x + tx` written for a 2-D block is the author's own 2-D indexing, where the
/// 3-D rank is what code written to ignore the shape computes.
fn is_linear_rank(p: &Poly, d: &RankAtoms) -> bool {
    let (Some(x), Some(y), Some(z), Some(nx), Some(ny)) =
        (d.tid[0], d.tid[1], d.tid[2], d.ntid[0], d.ntid[1])
    else {
        return false;
    };
    // Each thread-index term with its rank factors removed: the cofactor and coefficient.
    let mut by_dim: [Vec<(Monomial, i64)>; 3] = Default::default();
    for (m, &c) in &p.terms {
        let tids: Vec<usize> = (0..3).filter(|&i| m.contains(&[x, y, z][i])).collect();
        match tids.as_slice() {
            [] => continue,
            [i] => {
                let mut rest = m.clone();
                let factors: &[Node] = match i {
                    0 => &[x],
                    1 => &[y, nx],
                    _ => &[z, nx, ny],
                };
                for f in factors {
                    match rest.iter().position(|a| a == f) {
                        Some(k) => {
                            rest.remove(k);
                        }
                        None => return false,
                    }
                }
                by_dim[*i].push((rest, c));
            }
            _ => return false,
        }
    }
    for v in &mut by_dim {
        v.sort();
    }
    !by_dim[0].is_empty() && by_dim[0] == by_dim[1] && by_dim[1] == by_dim[2]
}

/// Whether `p` is `c · (tid.x + tid.y + tid.z)` and nothing else: compared with zero, it picks
/// the block's first thread in every shape (cooperative groups' `grid.sync()` elects its
/// block master so).
fn is_first_thread_test(p: &Poly, d: &RankAtoms) -> bool {
    let [Some(x), Some(y), Some(z)] = d.tid else {
        return false;
    };
    let c = p.terms.get(&vec![x]).copied();
    p.terms.len() == 3 && c.is_some() && [y, z].iter().all(|t| p.terms.get(&vec![*t]).copied() == c)
}

/// The block side a tile row of `row` elements implies (padding and halo removed).
fn tile_side(row: u32) -> u32 {
    [0, 1, 2]
        .into_iter()
        .map(|pad| row - pad.min(row))
        .find(|s| s.is_multiple_of(8) && *s > 0)
        .unwrap_or(row)
}

/// The row length (in elements) of a shared array indexed `[tid.y][tid.x]`, the one most
/// shared accesses agree on.
fn shared_tile_row(acf: &Acf, accesses: &[AccessSite]) -> Option<u32> {
    let mut votes: Vec<(u32, u32)> = Vec::new();
    for a in accesses.iter().filter(|a| a.space.is_shared()) {
        let p = acf.poly(a.addr);
        let (mut cx, mut cy, mut other) = (0i64, 0i64, false);
        for (m, &c) in &p.terms {
            let tid = |n: &Node| match acf.kind(*n) {
                Kind::Atom(Atom::Tid(d)) => Some(d),
                _ => None,
            };
            match (m.as_slice(), m.first().and_then(tid)) {
                ([_], Some(Dim::X)) => cx = c,
                ([_], Some(Dim::Y)) => cy = c,
                _ if m.iter().any(|n| tid(n).is_some() || acf.is_td(*n)) => other = true,
                _ => {}
            }
        }
        let size = i64::from(a.size);
        if other || cx != size || cy <= 0 || cy % cx != 0 {
            continue;
        }
        let row = cy / cx;
        // A row of 8 to 34 elements: a tile a block of 8x8 to 32x32 threads fills.
        let Ok(row) = u32::try_from(row) else {
            continue;
        };
        if !(8..=34).contains(&row) || !tile_side(row).is_multiple_of(8) {
            continue;
        }
        match votes.iter_mut().find(|(r, _)| *r == row) {
            Some(v) => v.1 += 1,
            None => votes.push((row, 1)),
        }
    }
    votes.iter().max_by_key(|(r, n)| (*n, *r)).map(|(r, _)| *r)
}

/// The note a kernel analysed in several shapes carries.
pub fn shapes_note(shapes: &[Geometry]) -> String {
    format!(
        "no block given and the kernel reads %tid.y: analysed in blocks {}; each finding says \
         which shapes it holds in (give --block to choose)",
        shape_list(shapes.iter().map(|g| g.block))
    )
}

fn shape_list(blocks: impl Iterator<Item = [u32; 3]>) -> String {
    blocks
        .map(|[x, y, _]| format!("{x}x{y}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One kernel's findings in several shapes, merged: a finding (rule and line) found in every
/// shape stays as it is; one found in some is `possible` and names the shapes it needs.
pub fn merge_findings(per_shape: &[(KernelAnalysis, Vec<Finding>, usize)]) -> Vec<Finding> {
    let key = |f: &Finding| {
        (
            f.rule,
            f.location.cuda.as_ref().map(|c| (c.file.clone(), c.line)),
            f.location.ptx.as_ref().map(|p| p.line),
        )
    };
    let mut out: Vec<(Finding, Vec<usize>)> = Vec::new();
    for (i, (_, fs, _)) in per_shape.iter().enumerate() {
        for f in fs {
            match out.iter_mut().find(|(o, _)| key(o) == key(f)) {
                Some((o, shapes)) => {
                    shapes.push(i);
                    if f.certainty < o.certainty {
                        o.certainty = f.certainty;
                    }
                    // What a verdict assumes may differ between shapes (the values of an
                    // unknown stride that would make the request dense): keep every shape's.
                    let [x, y, _] = per_shape[i].0.geometry.block;
                    for n in f.notes.iter().filter(|n| n.starts_with("assumption: ")) {
                        if !o.notes.contains(n) {
                            o.notes.push(format!("with block {x}x{y}, {n}"));
                        }
                    }
                }
                None => out.push((f.clone(), vec![i])),
            }
        }
    }
    let n = per_shape.len();
    let blocks = |idx: &[usize]| shape_list(idx.iter().map(|&i| per_shape[i].0.geometry.block));
    out.into_iter()
        .map(|(mut f, shapes)| {
            // The geometry note of one shape is replaced by the list.
            f.notes.retain(|n| !n.starts_with("geometry: "));
            // Assumptions that differ between shapes each name their shape.
            if f.notes.iter().any(|n| n.starts_with("with block ")) {
                let [x, y, _] = per_shape[shapes[0]].0.geometry.block;
                for n in f.notes.iter_mut().filter(|n| n.starts_with("assumption: ")) {
                    *n = format!("with block {x}x{y}, {n}");
                }
            }
            if shapes.len() == n {
                f.notes.push(format!(
                    "geometry: holds in every shape tried (blocks {}; grid unknown)",
                    blocks(&shapes)
                ));
            } else {
                let missing: Vec<usize> = (0..n).filter(|i| !shapes.contains(i)).collect();
                f.certainty = Certainty::Possible;
                f.message = format!(
                    "{} (with block {}, not {})",
                    f.message,
                    blocks(&shapes),
                    blocks(&missing)
                );
                f.notes.push(format!(
                    "geometry: only in blocks {} of the shapes tried; give --block to decide",
                    blocks(&shapes)
                ));
                f.caveat = Some(format!(
                    "rests on the block shape: nothing gave the kernel's block, and it holds \
                     only in {} of the shapes tried; --block settles it",
                    blocks(&shapes)
                ));
            }
            f
        })
        .collect()
}

//! The SASS's own control flow: basic blocks, their successors and the loops they are in.
//!
//! ptxas moves code between loops (loop-invariant code hoisted out of a loop keeps the line of
//! the PTX instruction it came from, so a line table alone puts it back in the loop). The loop
//! depth of each SASS instruction, read here from the SASS's branches, says how often it runs
//! relative to the PTX block it came from.
//!
//! Blocks start at offset 0, at every branch target and after every `BRA`, `BRX`, `JMX`,
//! `JMP`, `EXIT`, `RET`, `BREAK` and `BSYNC`. A block falls through to the next unless it ends
//! in an unconditional `BRA`/`JMP` (no guard or `@PT`, no predicate operand) or an unguarded
//! `EXIT`/`RET`; a `BRA` also goes to its target (`BRX`/`JMX` targets are not known: only the
//! fall-through is kept). A back edge is an edge to a block that does not start after the
//! branch's block and from which the branch's block can be reached again: a jump to an earlier
//! block that never comes back (ptxas lays out an early exit, or the tail of a `while` whose
//! test fails at once, before the code that jumps to it) closes no cycle and is no loop. Its
//! loop is every block that reaches its source without passing its target and is reached from
//! the target (for a target that dominates the source, the natural loop). Loops with the same
//! header are one loop.

use crate::listing::SassInst;

/// Whether control never falls through `inst` (an unconditional jump or exit).
fn ends_unconditionally(inst: &SassInst) -> bool {
    let always = inst.guard.is_none_or(|g| g.always && !g.negated);
    match inst.base_opcode() {
        // `BRA P1, target` has a predicate operand before the target (`BRA.DIV UR4, target` a
        // register one)
        "BRA" => always && !inst.operands.contains(','),
        "JMP" | "EXIT" | "RET" => always,
        _ => false,
    }
}

fn ends_block(inst: &SassInst) -> bool {
    matches!(
        inst.base_opcode(),
        "BRA" | "BRX" | "JMX" | "JMP" | "EXIT" | "RET" | "BREAK" | "BSYNC"
    )
}

/// The blocks reached from block `h` (itself included) along `succs`.
fn reached_from(h: usize, succs: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen[x] {
            seen[x] = true;
            stack.extend(succs[x].iter().copied());
        }
    }
    seen
}

/// The loop depth of each instruction of `insts` (one function's code, in address order): how
/// many SASS loops contain it (0 outside every loop).
pub fn loop_depths(insts: &[SassInst]) -> Vec<u32> {
    let n = insts.len();
    if n == 0 {
        return Vec::new();
    }
    // leaders
    let mut leader = vec![false; n];
    leader[0] = true;
    let index_of = |off: u32| insts.binary_search_by_key(&off, |i| i.offset).ok();
    for (k, inst) in insts.iter().enumerate() {
        if let Some(t) = inst.branch_target().and_then(index_of) {
            leader[t] = true;
        }
        if ends_block(inst) && k + 1 < n {
            leader[k + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&k| leader[k]).collect();
    let nb = starts.len();
    let block_of_inst = |k: usize| starts.partition_point(|&s| s <= k) - 1;
    // successors
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, s) in succs.iter_mut().enumerate() {
        let last = if b + 1 < nb { starts[b + 1] - 1 } else { n - 1 };
        let inst = &insts[last];
        if let Some(t) = inst.branch_target().and_then(index_of) {
            s.push(block_of_inst(t));
        }
        if !ends_unconditionally(inst) && b + 1 < nb {
            s.push(b + 1);
        }
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, s) in succs.iter().enumerate() {
        for &t in s {
            preds[t].push(b);
        }
    }
    // natural loops, merged by header; `from[h]`: the blocks reached from `h`, found once per
    // header that some backward edge goes to
    let mut body: Vec<Option<Vec<bool>>> = vec![None; nb];
    let mut from: Vec<Option<Vec<bool>>> = vec![None; nb];
    for (u, s) in succs.iter().enumerate() {
        for &h in s {
            if h > u {
                continue;
            }
            let reached = from[h].get_or_insert_with(|| reached_from(h, &succs));
            if !reached[u] {
                continue; // a jump back to code that never returns: no cycle
            }
            let inside = body[h].get_or_insert_with(|| {
                let mut v = vec![false; nb];
                v[h] = true;
                v
            });
            let mut stack = vec![u];
            while let Some(x) = stack.pop() {
                if inside[x] || !reached[x] {
                    continue;
                }
                inside[x] = true;
                stack.extend(preds[x].iter().copied());
            }
        }
    }
    let mut depth = vec![0u32; nb];
    for inside in body.iter().flatten() {
        for (d, &i) in depth.iter_mut().zip(inside) {
            *d += u32::from(i);
        }
    }
    (0..n).map(|k| depth[block_of_inst(k)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::parse;

    fn depths(listing: &str) -> Vec<u32> {
        let l = parse(listing);
        l.functions
            .first()
            .map_or_else(Vec::new, |f| loop_depths(&f.instructions))
    }

    #[test]
    fn loops_nest_and_hoisted_code_is_outside() {
        // a hoisted computation before a loop nest: outer loop 0x30..0xa0, inner 0x50..0x70
        let text = "\t.text.k:\n\
            /*0000*/ S2R R0, SR_TID.X ;\n\
            /*0010*/ IMAD R1, R0, R0, RZ ;\n\
            /*0020*/ LOP3.LUT R1, R1, 0x55, RZ, 0x3c, !PT ;\n\
            /*0030*/ IADD3 R2, R2, 0x1, RZ ;\n\
            /*0040*/ MOV R3, RZ ;\n\
            /*0050*/ IADD3 R3, R3, R1, RZ ;\n\
            /*0060*/ ISETP.GE.AND P0, PT, R3, 0x10, PT ;\n\
            /*0070*/ @!P0 BRA 0x50 ;\n\
            /*0080*/ ISETP.GE.AND P1, PT, R2, 0x8, PT ;\n\
            /*0090*/ @!P1 BRA 0x30 ;\n\
            /*00a0*/ BRA 0xc0 ;\n\
            /*00b0*/ NOP ;\n\
            /*00c0*/ EXIT ;\n\
            /*00d0*/ BRA 0xd0 ;\n";
        assert_eq!(depths(text), vec![0, 0, 0, 1, 1, 2, 2, 2, 1, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn unconditional_branches_do_not_fall_through() {
        // the block after the unconditional BRA at 0x40 is reached by nothing: its backward
        // branch to 0x20 closes no cycle (0x20 never reaches it), so it is in no loop
        let text = "\t.text.k:\n\
            /*0000*/ ISETP.GE.AND P0, PT, R2, 0x8, PT ;\n\
            /*0010*/ @P0 BRA 0x40 ;\n\
            /*0020*/ IADD3 R2, R2, 0x1, RZ ;\n\
            /*0030*/ @P1 BRA 0x20 ;\n\
            /*0040*/ BRA 0x60 ;\n\
            /*0050*/ @P2 BRA 0x20 ;\n\
            /*0060*/ EXIT ;\n";
        assert_eq!(depths(text), vec![0, 0, 1, 1, 0, 0, 0]);
        assert!(depths("").is_empty());
    }

    #[test]
    fn a_backward_jump_to_an_exit_is_no_loop() {
        // ptxas's layout of a loop with an early exit: the exit block (0x40) before the loop
        // (0x60..0x90), which leaves it by jumping back; only 0x90 -> 0x60 closes a cycle
        let text = "\t.text.k:\n\
            /*0000*/ S2R R0, SR_TID.X ;\n\
            /*0010*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;\n\
            /*0020*/ @!P0 BRA 0x60 ;\n\
            /*0030*/ MOV R1, RZ ;\n\
            /*0040*/ STG.E [R2.64], R1 ;\n\
            /*0050*/ EXIT ;\n\
            /*0060*/ IADD3 R1, R1, 0x1, RZ ;\n\
            /*0070*/ ISETP.GE.AND P1, PT, R1, R0, PT ;\n\
            /*0080*/ @P1 BRA 0x40 ;\n\
            /*0090*/ @!P2 BRA 0x60 ;\n\
            /*00a0*/ BRA 0x40 ;\n";
        assert_eq!(depths(text), vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0]);
    }
}

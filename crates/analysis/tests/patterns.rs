//! The patterns of issue 10 (`warpscope check` on code nobody here wrote), each a small CUDA
//! program of our own with committed PTX (nvcc 13.0.88, `scripts/regen-ptx.sh`; CI checks it is current) in
//! `tests/patterns/`, checked the way a user first runs `check`: no geometry, no
//! assumptions; only what the sources' launch sites say, as the command line reads them.
//! Expectations are `// expect:` comments as in the corpus.

mod common;

use warpscope_analysis::{CheckOptions, CheckResult, DivClass, Engine, GeometrySource, HostLaunch};
use warpscope_report::{Certainty, Rule};
use warpscope_validate::corpus::{Spec, score};

/// `check` on `tests/patterns/NAME.ptx` with the defaults and the launch sites of its source.
fn run(name: &str) -> (String, Spec, CheckResult) {
    let rel = format!("crates/analysis/tests/patterns/{name}.cu");
    let cu = common::root().join(&rel);
    let text = std::fs::read_to_string(&cu).unwrap();
    let spec = Spec::parse(&text).unwrap();
    assert!(spec.geometry.is_empty() && spec.assumptions.params.is_empty());
    let mut opts = CheckOptions {
        engine: Engine::Acf,
        ..CheckOptions::default()
    };
    opts.add_launches(
        warpscope_frontend::launch_sites(&text)
            .into_iter()
            .map(|s| HostLaunch {
                kernel: s.kernel,
                file: rel.clone(),
                line: s.line,
                grid: s.grid,
                block: s.block,
                args: s.args.into_iter().map(|a| (a.text, a.value)).collect(),
            }),
    );
    let r = common::run(&cu.with_extension("ptx"), &opts);
    (rel, spec, r)
}

/// Every expectation found with its certainty, and nothing else.
fn exact(name: &str) -> CheckResult {
    let (rel, spec, r) = run(name);
    let (_, mism) = score(&spec, &rel, &r.report.findings);
    assert!(
        mism.is_empty(),
        "{name}: {:#?}\nfindings: {:#?}",
        mism.iter()
            .map(|m| format!("line {} {} {}: {}", m.line, m.rule, m.kind, m.detail))
            .collect::<Vec<_>>(),
        r.report
            .findings
            .iter()
            .map(|f| format!(
                "{:?} {} {}: {}",
                f.location.cuda.as_ref().map(|c| c.line),
                f.rule.id(),
                f.certainty.as_str(),
                f.message
            ))
            .collect::<Vec<_>>()
    );
    r
}

/// The uncoalesced- and misaligned-access findings.
fn memory_findings(r: &CheckResult) -> Vec<&warpscope_report::Finding> {
    r.report
        .findings
        .iter()
        .filter(|f| matches!(f.rule, Rule::UncoalescedAccess | Rule::MisalignedAccess))
        .collect()
}

/// The divergent-branch finding on CUDA line `line`.
fn branch_at(r: &CheckResult, line: u32) -> &warpscope_report::Finding {
    r.report
        .findings
        .iter()
        .find(|f| {
            f.rule == Rule::DivergentBranch
                && f.location.cuda.as_ref().is_some_and(|c| c.line == line)
        })
        .unwrap_or_else(|| panic!("a divergent-branch finding on line {line}"))
}

fn kernel<'a>(r: &'a CheckResult, name: &str) -> &'a warpscope_analysis::KernelAnalysis {
    r.kernels.iter().find(|k| k.name == name).unwrap()
}

#[test]
fn two_d_blocks_come_from_launch_sites_shared_tiles_or_common_shapes() {
    let r = exact("geometry_2d");
    let k = kernel(&r, "corner_launch");
    assert_eq!(k.geometry.block, [16, 16, 1]);
    assert!(matches!(
        k.geometry.block_source,
        GeometrySource::LaunchSite { line: 51, .. }
    ));
    let k = kernel(&r, "halo_tile");
    assert_eq!(k.geometry.block, [32, 32, 1]);
    assert_eq!(
        k.geometry.block_source,
        GeometrySource::SharedTile { row: 32 }
    );
    let k = kernel(&r, "left_half");
    assert_eq!(k.geometry.block_source, GeometrySource::CommonShape);
    // The verdict that needs a shape says which.
    let f = r
        .report
        .findings
        .iter()
        .find(|f| f.kernel == "left_half" && f.certainty == Certainty::Possible)
        .unwrap();
    assert!(
        f.message.contains("with block 32x8, 32x32, not 16x16"),
        "{}",
        f.message
    );
    // Every finding says which geometry it was measured in and where that came from.
    for f in &r.report.findings {
        assert!(f.notes.iter().any(|n| n.starts_with("geometry: ")), "{f:?}");
    }
    assert!(r.report.kernels.iter().any(|k| {
        k.geometry
            .contains("launch at crates/analysis/tests/patterns/geometry_2d.cu:51")
    }));
}

#[test]
fn a_thread_dependent_branch_or_joined_with_a_uniform_unknown_diverges() {
    let r = exact("or_guard");
    let k = kernel(&r, "odd_lanes_loop");
    let b = k
        .branches
        .iter()
        .find(|b| b.class == DivClass::Total)
        .expect("the folded loop guard diverges");
    assert!(b.unless_uniform);
    let f = &r.report.findings[0];
    assert_eq!(f.certainty, Certainty::Possible);
    assert!(
        f.message.contains("unless a lane-uniform unknown"),
        "{}",
        f.message
    );
}

#[test]
fn branches_on_loaded_values_are_possible_with_the_load_as_provenance() {
    let r = exact("data_branch");
    for f in r
        .report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::DivergentBranch)
    {
        assert!(f.message.contains("loaded data"), "{}", f.message);
        assert!(
            f.provenance
                .iter()
                .any(|s| s.message.contains("loads through")),
            "{:?}",
            f.provenance
        );
    }
}

#[test]
fn an_unknown_pitch_alone_is_no_misalignment() {
    exact("pitched");
}

#[test]
fn a_register_the_loop_header_overwrites_carries_nothing_around_the_loop() {
    // Before: the four dense reads of the unrolled body were `possible` uncoalesced accesses
    // (a fresh unknown cut the builder's cycle through the latch, read as loaded data).
    exact("header_write");
}

#[test]
fn an_unknown_grid_is_sampled_inside_a_3d_halo() {
    // Before: no finding at all (every sampled block had z = 0, so `k >= 4` switched every
    // lane off); a first fix that sampled interior blocks but read the padded pitch without
    // the sampled block also reported the y neighbours, whole rows away.
    exact("halo_3d");
}

#[test]
fn rows_counted_in_pairs_are_padded_rows() {
    // Before: all four kernels "may start mid-sector" (`bid * n / 2` was a symbol of unknown
    // residue); after: only the shifted rows and the bitonic partner.
    exact("halved_rows");
}

#[test]
fn gaps_any_few_lanes_leave_are_definite_under_a_data_mask() {
    // Before: the 40- and 12-byte strides under a flag were `possible` (a condition on loaded
    // data may switch lanes off), and `m[i * n + i]` too (`n + 1` was no stride of one
    // unknown whose only dense values are 0 and ±1).
    let r = exact("sparse_lanes");
    let note = |line: u32| -> String {
        memory_findings(&r)
            .into_iter()
            .find(|f| f.location.cuda.as_ref().is_some_and(|c| c.line == line))
            .map(|f| f.notes.join("\n") + &f.message)
            .unwrap_or_default()
    };
    assert!(
        note(16).contains("at least 2 lanes of a warp run it"),
        "{}",
        note(16)
    );
    assert!(
        note(25).contains("at least 4 lanes of a warp run it"),
        "{}",
        note(25)
    );
    assert!(
        note(42).contains("every value of it but -2, -1 and 0"),
        "{}",
        note(42)
    );
}

#[test]
fn a_row_that_alone_has_gaps_makes_the_request_uncoalesced_whatever_the_pitch() {
    // Before: `possible` (the unknown width was read as padded to measure the request).
    let r = exact("rgb_rows");
    let f = memory_findings(&r)
        .into_iter()
        .find(|f| f.kernel == "shade")
        .expect("the RGB store is reported");
    assert!(
        f.notes.iter().any(|n| n.contains("one row of the warp")),
        "{:?}",
        f.notes
    );
    assert!(
        !f.notes
            .iter()
            .any(|n| n.contains("what only that reading shows")),
        "{:?}",
        f.notes
    );
}

#[test]
fn sections_of_a_parameter_length_alone_are_no_misalignment() {
    exact("section_offset");
}

#[test]
fn masks_shifts_and_mul24_of_unknown_scalars_alone_are_no_finding() {
    let r = exact("masked");
    // The one finding left points at a constant offset, and rests on the mask's reading.
    let f = r
        .report
        .findings
        .iter()
        .find(|f| f.kernel == "butterfly_shifted")
        .expect("the odd offset is reported");
    assert!(f.message.contains("4 bytes into"), "{}", f.message);
}

#[test]
fn boundary_checks_are_notes_of_kind_boundary_in_json_and_sarif() {
    let r = exact("boundary");
    let f = r
        .report
        .findings
        .iter()
        .find(|f| f.rule == Rule::DivergentBranch)
        .expect("the boundary check is reported");
    assert!(f.is_boundary());
    assert_eq!(f.certainty, Certainty::Possible);
    let json = warpscope_report::json::render(&r.report);
    assert!(json.contains("\"kind\": \"boundary\""), "{json}");
    let sarif: serde_json::Value =
        serde_json::from_str(&warpscope_report::sarif::render(&r.report)).unwrap();
    let res = &sarif["runs"][0]["results"][0];
    assert_eq!(res["ruleId"], "divergent-branch");
    assert_eq!(res["level"], "note");
    assert_eq!(res["properties"]["kind"], "boundary");
}

#[test]
fn branches_ptxas_lowers_without_a_branch_are_notes_of_their_lowering() {
    let r = exact("lowering");
    let kind_at = |line: u32| branch_at(&r, line).kind.clone();
    // `if (tid == 0) { out[b] = ...; }` at the kernel's end, `if (...) return;`: `@P EXIT`.
    assert_eq!(kind_at(12).as_deref(), Some("exit"));
    assert_eq!(kind_at(19).as_deref(), Some("exit"));
    // A 4-instruction body: predicated.
    assert_eq!(kind_at(27).as_deref(), Some("predicated"));
    // Ten loads and five fmas: past the size limit, so `check` keeps it a real branch (ptxas
    // 13.0.88 in fact predicates this one, nvdisasm shows: the limit is a heuristic).
    assert_eq!(kind_at(37), None);
    // An unrolled reduction tail: predicated bodies and, for the last, a predicated exit,
    // folded into one note.
    assert!(matches!(
        kind_at(52).as_deref(),
        Some("predicated" | "exit")
    ));
    // Integer division by `warpSize` (a register) does not keep ptxas from predicating.
    assert_eq!(kind_at(65).as_deref(), Some("predicated"));
    // A five-instruction body with a load from local memory: a real branch.
    assert_eq!(kind_at(79), None);
    for line in [12, 19, 27, 52, 65] {
        let f = r
            .report
            .findings
            .iter()
            .find(|f| f.location.cuda.as_ref().is_some_and(|c| c.line == line))
            .unwrap();
        assert!(f.is_tallied());
        assert!(
            f.notes.iter().any(|n| n.starts_with("lowering:")),
            "{:?}",
            f.notes
        );
        assert!(
            f.fix
                .as_deref()
                .is_some_and(|h| h.starts_with("little to gain"))
        );
    }
}

/// The lines of a pattern's source marked `// slow path`: branches of the SASS, not of the
/// source, which carry no `expect:` comment (the corpus scoring reads those as source branches).
fn slow_path_lines(text: &str) -> Vec<u32> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_end().ends_with("// slow path"))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

#[test]
fn slow_paths_of_ieee_division_and_square_root_and_strided_loop_bounds() {
    let r = exact("slow_path");
    let text =
        std::fs::read_to_string(common::root().join("crates/analysis/tests/patterns/slow_path.cu"))
            .unwrap();
    let line_of = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .map(|i| i as u32 + 1)
            .unwrap_or_else(|| panic!("no line with {needle:?}"))
    };
    let marked = slow_path_lines(&text);
    assert_eq!(marked.len(), 4);
    // A sum from zero, a difference, the root of a scaled sum, a loop's sum of products:
    // reported; a product of loads, a lane-uniform dividend and `__fdividef` (kernel `quiet`),
    // products added once (`a*c + b*d`, `x - y*z`; kernel `products`), the root of a sum plus
    // a lane-uniform term (kernel `softened`): not. Before, the two products added once were
    // reported (any fused multiply-add counted as a sum), and so was `softened`'s root.
    let mut slow: Vec<u32> = r
        .report
        .findings
        .iter()
        .filter(|f| f.is_slow_path())
        .map(|f| f.location.cuda.as_ref().unwrap().line)
        .collect();
    slow.sort_unstable();
    assert_eq!(slow, marked);
    for f in r.report.findings.iter().filter(|f| f.is_slow_path()) {
        assert_eq!(f.rule, Rule::DivergentBranch);
        assert_eq!(f.certainty, Certainty::Possible);
        assert!(!f.is_tallied(), "a slow path is listed, not tallied");
        assert!(f.notes.iter().any(|n| n.starts_with("lowering:")));
        assert!(f.message.contains("slow path"), "{}", f.message);
    }
    // Every branch nvcc makes of a grid-stride loop (guard, remainder dispatch, unrolled body)
    // is a boundary check; the triangular loop's (`expect:` above) stays a possible divergence.
    let on = |line: u32| branch_at(&r, line);
    let grid = on(line_of("pos += threads"));
    assert!(grid.is_boundary(), "{:?}: {}", grid.kind, grid.message);
    assert!(!on(line_of("k = j + 1")).is_tallied());
}

#[test]
fn constant_launch_arguments_bind_parameters_with_the_launch_as_provenance() {
    let r = exact("launch_args");
    let src = "crates/analysis/tests/patterns/launch_args.cu";
    // `merge_parts<<<256, THREADS>>>(d_out, d_parts, PARTS)`: count = 240, so the loop's test
    // splits one warp in eight, `definite`, and says where 240 came from.
    let f = branch_at(&r, 13);
    assert_eq!(f.certainty, Certainty::Definite);
    assert!(!f.is_tallied(), "{:?}", f.kind);
    let from = format!("assuming count = 240 (from the launch at {src}:36)");
    assert!(f.notes.contains(&from), "{:?}", f.notes);
    assert!(kernel(&r, "merge_parts").notes.contains(&from));
    // Two launches with 240 and 96: both values examined (the one with 240 splits warp 7),
    // saying so.
    let head = kernel(&r, "head");
    assert!(
        head.notes
            .iter()
            .any(|n| n.starts_with("assuming n in {96, 240} (the 2 launches at")),
        "{:?}",
        head.notes
    );
    let f = branch_at(&r, 21);
    assert_eq!(f.certainty, Certainty::Definite);
    assert!(f.message.contains("1 of 8 warps"), "{}", f.message);
    // One launch passes a run-time size: nothing bound, and the note says which launch.
    let scale = kernel(&r, "scale");
    assert!(!scale.notes.iter().any(|n| n.starts_with("assuming")));
    assert!(
        scale
            .notes
            .iter()
            .any(|n| n.contains(&format!("the launch at {src}:39 passes `size`"))),
        "{:?}",
        scale.notes
    );
    assert!(branch_at(&r, 30).is_tallied());
}

#[test]
fn findings_are_ranked_proven_likely_then_caveats_that_say_what_they_rest_on() {
    let r = exact("ranked");
    let line = |f: &warpscope_report::Finding| f.location.cuda.as_ref().unwrap().line;
    // Proven (line 11), likely (loaded index, line 10), then the caveat (line 9): not in
    // source order.
    let order: Vec<u32> = r.report.findings.iter().map(line).collect();
    assert_eq!(
        order,
        [11, 10, 9],
        "{:#?}",
        r.report
            .findings
            .iter()
            .map(|f| (&f.message, &f.notes, &f.caveat))
            .collect::<Vec<_>>()
    );
    let caveat = &r.report.findings[2];
    assert_eq!(caveat.rank(), warpscope_report::Rank::Caveat);
    assert!(
        caveat
            .caveat
            .as_deref()
            // `w` scales the halo's start (`4*w`): read as a padded row length, like a pitch.
            .is_some_and(|c| c.starts_with("rests on reading an unknown integer parameter")),
        "{:?}",
        caveat.caveat
    );
    assert!(r.report.findings[1].caveat.is_none());
    let mut sources = warpscope_report::text::Sources::new();
    sources.insert(
        "crates/analysis/tests/patterns/ranked.cu",
        std::fs::read_to_string(common::root().join("crates/analysis/tests/patterns/ranked.cu"))
            .unwrap(),
    );
    let text = warpscope_report::text::render(
        &r.report,
        &sources,
        &warpscope_report::text::TextOptions::default(),
    );
    insta::assert_snapshot!("ranked_text", text);
    let sarif = warpscope_report::sarif::to_value(&r.report);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let ranks: Vec<f64> = results
        .iter()
        .map(|x| x["rank"].as_f64().unwrap())
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] > w[1]), "{ranks:?}");
    assert!(
        results[2]["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Caveat: ")
    );
    assert!(results[2]["properties"]["caveat"].is_string());
}

#[test]
fn library_code_inlined_at_one_call_is_a_finding_per_header_line() {
    let (_, _, r) = run("header_fields");
    let header = "crates/analysis/tests/patterns/include/rng_state.h";
    let mut origins: Vec<u32> = r
        .report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::UncoalescedAccess)
        .map(|f| {
            // Shown at the user's call, where the header was inlined ...
            let at = f.location.cuda.as_ref().expect("a CUDA location");
            assert_eq!(
                (at.file.as_str(), at.line),
                ("crates/analysis/tests/patterns/header_fields.cu", 11)
            );
            assert_eq!(f.certainty, Certainty::Definite);
            // ... with the header's own line as the origin, one finding per line.
            let o = f
                .location
                .origin
                .as_ref()
                .expect("the header line as origin");
            assert_eq!(o.file, header);
            o.line
        })
        .collect();
    origins.sort();
    assert_eq!(origins, vec![12, 13, 14], "{:#?}", r.report.findings);
}

#[test]
fn an_unrolled_grid_stride_loop_keeps_its_lanes_consecutive() {
    let (_, _, r) = run("grid_stride");
    let memory = memory_findings(&r);
    assert!(memory.is_empty(), "{memory:#?}");
    // The loop's own test is what it always was: a boundary check against `n`.
    let b = branch_at(&r, 11);
    assert_eq!(b.kind.as_deref(), Some("boundary"), "{b:#?}");
}

#[test]
fn rotated_registers_of_an_unrolled_loop_keep_their_indices_affine() {
    let (_, _, r) = run("rotated_unroll");
    let memory = memory_findings(&r);
    // The 7 lines whose warps read or write whole rows, each a dense request R = 4 floats
    // (16 bytes) past a sector boundary; nothing opaque (the side halos' 4 lanes are fine).
    let mut lines: Vec<u32> = memory
        .iter()
        .filter_map(|f| f.location.cuda.as_ref().map(|c| c.line))
        .collect();
    lines.sort();
    lines.dedup();
    assert_eq!(lines, vec![32, 36, 41, 54, 59, 60, 73], "{memory:#?}");
    for f in &memory {
        assert_eq!(f.rule, Rule::MisalignedAccess, "{f:#?}");
        assert_eq!(f.certainty, Certainty::Definite, "{f:#?}");
        assert!(f.message.contains("16 bytes into"), "{f:#?}");
    }
}

#[test]
fn a_reduce_over_a_labeled_partition_diverges_and_names_its_whole_call_chain() {
    let (_, _, r) = run("labeled_reduce");
    let split: Vec<_> = r
        .report
        .findings
        .iter()
        .filter(|f| f.kind.as_deref() == Some("warp-sync-mask"))
        .collect();
    // One: the labeled group's reduction; not the tile's (one mask for the whole warp), not
    // the group's `shfl` (not serialised).
    assert_eq!(split.len(), 1, "{:#?}", r.report.findings);
    let f = split[0];
    assert_eq!(f.kernel, "bucket_max");
    assert_eq!(f.rule, Rule::DivergentBranch);
    assert_eq!(f.certainty, Certainty::Possible);
    // Shown at the program's call, from the header that holds the instruction.
    let cuda = f.location.cuda.as_ref().unwrap();
    assert!(
        cuda.file.ends_with("labeled_reduce.cu") && cuda.line == 20,
        "{f:#?}"
    );
    let origin = f.location.origin.as_ref().unwrap();
    assert!(origin.file.ends_with("sm_80_rt.hpp"), "{f:#?}");
    // Every call site of the inline chain, innermost first, down to the program's line.
    let chain: Vec<(String, u32)> = f
        .location
        .inlined_at
        .iter()
        .map(|l| (l.file.rsplit('/').next().unwrap().to_string(), l.line))
        .collect();
    assert!(chain.len() >= 5, "{chain:?}");
    assert!(
        chain.iter().filter(|(f, _)| f == "reduce.h").count() >= 4,
        "{chain:?}"
    );
    assert_eq!(chain.last(), Some(&("labeled_reduce.cu".to_string(), 20)));
}

#[test]
fn warp_votes_are_uniform_and_a_lone_lane_cannot_diverge() {
    // Before: the retry on the ballot (line 25) was a `possible` data-dependent branch, the
    // leader test (31) too (the retry's join hid which lanes reach it), and the two tests
    // only the leader runs (32, 34) were `possible` as well, and so was the slow path of the
    // square root only the leader takes (46).
    let r = exact("warp_leader");
    let f = branch_at(&r, 31);
    assert!(f.message.contains("every warp"), "{f:#?}");
    // `exact` leaves slow paths aside (branches of the SASS): none here.
    assert!(
        !r.report
            .findings
            .iter()
            .any(|f| f.kind.as_deref() == Some("slow-path")),
        "{:#?}",
        r.report.findings
    );
}

#[test]
fn a_lane_test_joined_to_boundary_checks_diverges_and_an_unrolled_loop_that_never_runs_does_not() {
    // Before: line 21 was a boundary note (tallied, not reported), and the exit test of the
    // copy loop's unrolled-by-four body (line 40, never entered) a `possible` data branch,
    // folded with the loop's boundary note into a scored finding.
    let r = exact("guarded_lane");
    let f = branch_at(&r, 21);
    assert_eq!(f.kind, None, "{f:#?}");
    assert!(f.message.contains("interior blocks"), "{f:#?}");
    assert_eq!(branch_at(&r, 40).kind.as_deref(), Some("boundary"));
}

#[test]
fn a_warp_synchronous_walk_over_a_per_warp_stack_does_not_diverge() {
    // Before: the walk's loop (line 23), the child test (28) and the vote's branch (33) were
    // `possible` data branches and the top-of-stack loads `possible` scattered accesses: the
    // warp index `threadIdx.x / 32` was thread-dependent, and so was all it indexed.
    exact("warp_stack");
}

#[test]
fn a_float_atomic_add_on_shared_memory_may_diverge_in_its_retry_loop() {
    // Before: no finding on line 21 (the PTX has no branch there).
    let r = exact("atomic_retry");
    let retries: Vec<_> = r
        .report
        .findings
        .iter()
        .filter(|f| f.kind.as_deref() == Some("atomic-retry"))
        .collect();
    // Only the update every lane makes: not the integer one (native), not lane 0's.
    assert_eq!(retries.len(), 1, "{retries:#?}");
    let f = retries[0];
    assert_eq!(f.location.cuda.as_ref().unwrap().line, 21);
    assert_eq!(f.certainty, Certainty::Possible);
}

#[test]
fn a_halo_test_on_the_global_index_splits_the_first_block() {
    // Before: lines 17 (`g < 0 || g >= n`, `g` three cells left of the block) and 32
    // (`gx == 0 || gx == nx - 1 || z == 0 || ...`) were boundary notes, tallied and not
    // reported; in the first block, which every launch has, their index tests split warps
    // whatever the run-time sizes are.
    let r = exact("first_block");
    for line in [17, 32] {
        let f = branch_at(&r, line);
        assert_eq!(f.kind, None, "{f:#?}");
        assert!(f.message.contains("first block"), "{f:#?}");
    }
    // The plain global index against `n`: a boundary check, still a note.
    assert_eq!(branch_at(&r, 45).kind.as_deref(), Some("boundary"));
}

#[test]
fn a_per_lane_depth_carried_around_a_loop_diverges_on_either_side_of_a_branch() {
    // Before: no finding on line 22 (`depth == n` after `depth++`): the depth read there
    // was defined on the other side of the data-dependent branches on the previous trip,
    // which only uses after their join were taken to merge.
    let r = exact("walk_depth");
    let f = branch_at(&r, 22);
    assert_eq!(f.certainty, Certainty::Possible);
}

#[test]
fn the_first_global_index_splits_the_first_block_whatever_the_grid() {
    // Before: line 8 (`gid == 0`, no size read, the grid known only at run time) was a
    // boundary note, tallied and not reported.
    let r = exact("first_index");
    let f = branch_at(&r, 8);
    assert_eq!(f.kind, None, "{f:#?}");
    assert!(f.message.contains("first block"), "{f:#?}");
}

#[test]
fn a_block_local_test_against_a_computed_bound_diverges_in_every_block() {
    // Before: lines 14, 18 (`tid >= blockDim.x - mask_width / 2`, `tid < mask_width / 2`) and
    // 32 (a strided loop up to a tile extent rounded from a float ratio) were boundary notes,
    // tallied and not reported.
    let r = exact("computed_bound");
    for line in [14, 18, 32] {
        let f = branch_at(&r, line);
        assert!(f.kind.as_deref() != Some("boundary"), "{f:#?}");
        assert!(f.message.contains("not a multiple of 32"), "{f:#?}");
    }
    // A size passed whole and a power of two: boundary notes.
    for line in [35, 37] {
        assert_eq!(
            branch_at(&r, line).kind.as_deref(),
            Some("boundary"),
            "line {line}"
        );
    }
}

#[test]
fn a_thread_index_converted_to_a_dividend_may_take_the_slow_path() {
    // Before: no slow-path finding in this file (only float sums and differences were read as
    // possibly zero dividends).
    let r = exact("int_dividend");
    let text = std::fs::read_to_string(
        common::root().join("crates/analysis/tests/patterns/int_dividend.cu"),
    )
    .unwrap();
    let marked = slow_path_lines(&text);
    assert_eq!(marked.len(), 3);
    let slow: Vec<u32> = r
        .report
        .findings
        .iter()
        .filter(|f| f.kind.as_deref() == Some("slow-path"))
        .map(|f| f.location.cuda.as_ref().unwrap().line)
        .collect();
    assert_eq!(slow, marked);
}

#[test]
fn accesses_through_a_pointer_kept_in_shared_memory_are_shared() {
    // Before: lines 22-24 were `definite` uncoalesced global accesses (and line 30 a possibly
    // misaligned one): generic accesses were measured as global.
    let r = exact("shared_pointer");
    assert!(memory_findings(&r).is_empty(), "{:#?}", memory_findings(&r));
}

#[test]
fn a_flat_index_split_into_row_and_column_reads_as_it_runs() {
    // Before: `u[i + (j - 1) * n]` (which is `u[idx - n]`) and `t[i % 30]` (with the grid
    // unknown) were `possible` uncoalesced accesses ("the stride between lanes
    // depends on a parameter"), and the column tests `x > 1` (`x = idx % w`) boundary notes,
    // tallied and not reported.
    let r = exact("flat_index");
    let text = std::fs::read_to_string(
        common::root().join("crates/analysis/tests/patterns/flat_index.cu"),
    )
    .unwrap();
    let line_of = |needle: &str| {
        text.lines()
            .position(|l| !l.trim_start().starts_with("//") && l.contains(needle))
            .map(|i| i as u32 + 1)
            .unwrap_or_else(|| panic!("no line with {needle:?}"))
    };
    // The column test, alone and behind a data-dependent early return (`guarded_column`).
    let columns: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("if (x > 1)"))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    assert_eq!(columns.len(), 2);
    for line in columns {
        let column = branch_at(&r, line);
        assert_eq!(column.kind, None, "{column:#?}");
        assert!(
            column.message.contains("every run-time size"),
            "{column:#?}"
        );
    }
    // The row test and the plain bounds stay boundary checks: uniform for some sizes (with
    // one value for both sizes at once, `idx * per < total` was `idx < 1`, a finding).
    for needle in [
        "if (y > 1)",
        "if (idx >= w * h)",
        "if (i < n)",
        "idx * per < total",
    ] {
        let f = branch_at(&r, line_of(needle));
        assert_eq!(f.kind.as_deref(), Some("boundary"), "{needle}: {f:#?}");
    }
    // The memory findings: the column test's `p[idx - 1]` (one sector past the warp's) and
    // the store behind the early return (lanes it stops may leave holes).
    let mut mem: Vec<u32> = memory_findings(&r)
        .iter()
        .map(|f| f.location.cuda.as_ref().unwrap().line)
        .collect();
    mem.sort_unstable();
    assert_eq!(
        mem,
        vec![
            line_of("p[idx - 1]"),
            line_of("lanes the early return stops")
        ]
    );
}

#[test]
fn indices_modulo_an_unknown_size_keep_a_warp_s_lanes_together() {
    // Before: every access of `periodic` and `planes` was a `possible` uncoalesced access
    // ("the stride between lanes depends on a parameter"), and the edge stores of `edge`
    // too: a remainder or quotient by a parameter was no value any lane could evaluate, and
    // nvcc's 64-bit division (a 32-bit division where both operands fit) a select between two.
    let r = exact("periodic_index");
    let lines: Vec<u32> = memory_findings(&r)
        .iter()
        .map(|f| f.location.cuda.as_ref().unwrap().line)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    // What rests on the shared quotient is `possible`, never `definite`.
    assert!(
        memory_findings(&r)
            .iter()
            .all(|f| f.certainty == Certainty::Possible)
    );
}

#[test]
fn pointers_in_a_structure_passed_by_value_are_aligned_as_pointers() {
    // Before: both lines were `possible` misaligned accesses ("may start mid-sector"): the
    // structure's fields were integers of unknown alignment.
    exact("struct_fields");
}

#[test]
fn a_thread_index_bound_loaded_at_run_time_leaves_no_holes() {
    // Before: the stores on both sides of `threadIdx.x < count` were `possible` uncoalesced
    // accesses ("lanes that a condition the analysis cannot evaluate switches off may leave
    // holes"), as the scattered mask `keep[i]` is.
    let r = exact("loaded_bound");
    assert_eq!(memory_findings(&r).len(), 1);
}

#[test]
fn lanes_a_multiple_of_an_unknown_apart_are_uncoalesced_unless_it_is_degenerate() {
    let r = exact("unknown_stride");
    // The definite verdict says what it assumes.
    for f in memory_findings(&r)
        .into_iter()
        .filter(|f| f.certainty == Certainty::Definite)
    {
        assert!(
            f.notes.iter().any(|n| n.contains("not 0 or ±1")),
            "{}: {:?}",
            f.kernel,
            f.notes
        );
    }
    // Analysed in several block shapes, each shape's assumption is kept with its shape: a
    // 16x16 block's two rows are dense when the stride is 2 as well.
    let t = memory_findings(&r)
        .into_iter()
        .find(|f| f.kernel == "transpose_naive")
        .expect("the transposed write is reported");
    assert!(
        t.notes.iter().any(
            |n| n.starts_with("with block 16x16, assumption:") && n.contains("not 0, ±1 or ±2")
        ),
        "{:?}",
        t.notes
    );
    assert!(
        t.notes
            .iter()
            .any(|n| n.starts_with("with block 32x8, assumption:") && n.contains("not 0 or ±1")),
        "{:?}",
        t.notes
    );
}

#[test]
fn block_stride_loops_under_lane_uniform_loops_are_decided() {
    // Before: the outer loops' 64 iterations and 500 blocks were enumerated for every inner
    // loop's test, the kernel's evaluation budget ran out after the first ones, and the later
    // loops were boundary notes ("evaluation budget spent").
    let r = exact("outer_loops");
    let definite = r
        .report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::DivergentBranch && f.certainty == Certainty::Definite)
        .count();
    assert_eq!(definite, 6);
}

#[test]
fn a_test_for_nan_or_infinity_on_loaded_data_is_a_caveat() {
    // Before: all three branches were likely findings ("its condition depends on loaded
    // data"); the tests for NaN and infinity come out the same for every finite value.
    let r = exact("special_value");
    let text = std::fs::read_to_string(
        common::root().join("crates/analysis/tests/patterns/special_value.cu"),
    )
    .unwrap();
    let line_of = |s: &str| text.lines().position(|l| l.contains(s)).unwrap() as u32 + 1;
    for s in ["if (isnan(v))", "if (!isinf(w))"] {
        let f = branch_at(&r, line_of(s));
        assert_eq!(f.rank(), warpscope_report::Rank::Caveat, "{s}: {f:#?}");
        assert!(
            f.caveat
                .as_deref()
                .is_some_and(|c| c.starts_with("rests on the data holding NaN or infinite")),
            "{s}: {:?}",
            f.caveat
        );
    }
    let f = branch_at(&r, line_of("if (v > 0.5f)"));
    assert_eq!(f.rank(), warpscope_report::Rank::Likely, "{f:#?}");
}

#[test]
fn a_magnitude_test_against_a_huge_constant_on_loaded_data_is_a_caveat() {
    // Before: `sinf(v) + cos(d[i])` and `fabsf(v) > 1e6f` were likely findings ("its condition
    // depends on loaded data"): the trigonometric functions' test of |x| against 105615 (2^31
    // for doubles), and the branches ptxas predicates beside it, come out the same for every
    // value below the constant. Folding the predicated notes into the line's finding also
    // cleared the caveat of the infinity test on that line.
    let r = exact("huge_argument");
    let text = std::fs::read_to_string(
        common::root().join("crates/analysis/tests/patterns/huge_argument.cu"),
    )
    .unwrap();
    let line_of = |s: &str| text.lines().position(|l| l.contains(s)).unwrap() as u32 + 1;
    for s in ["sinf(v) + (float)cos(d[i])", "if (fabsf(v) > 1.0e6f)"] {
        let f = branch_at(&r, line_of(s));
        assert_eq!(f.rank(), warpscope_report::Rank::Caveat, "{s}: {f:#?}");
        assert!(
            f.caveat
                .as_deref()
                .is_some_and(|c| c.starts_with("rests on the data holding huge values")),
            "{s}: {:?}",
            f.caveat
        );
    }
    let f = branch_at(&r, line_of("if (v > 1.0e6f)"));
    assert_eq!(f.rank(), warpscope_report::Rank::Likely, "{f:#?}");
}

#[test]
fn a_clock_read_by_a_whole_warp_is_one_value() {
    // Before: `while (clock64() - start < budget)` was a `possible` divergent branch ("depends
    // on a clock register"), as cuda::barrier's back-off in the CUDA headers was.
    exact("clock_wait");
}

#[test]
fn a_butterfly_reduction_over_the_warp_is_one_value_in_every_lane() {
    // Before: `if (s > 0.0f)` on the `__shfl_xor_sync` total was a `possible` divergent branch
    // and `s / n` a `possible` slow path, as `cg::reduce`'s totals were in HeCBench's
    // groupnorm; the `__shfl_down_sync` partial sums stay thread-dependent.
    let (rel, _, r) = run("butterfly");
    exact("butterfly");
    let text = std::fs::read_to_string(common::root().join(&rel)).unwrap();
    let line = text.lines().position(|l| l.contains("s / n")).unwrap() as u32 + 1;
    assert!(
        !r.report
            .findings
            .iter()
            .any(|f| f.rule == Rule::DivergentBranch
                && f.location.cuda.as_ref().is_some_and(|c| c.line == line)),
        "{:#?}",
        r.report.findings
    );
}

#[test]
fn a_full_warp_shuffle_from_one_lane_is_one_value_in_every_lane() {
    // Before: the loops on `__shfl_sync(0xffffffff, v, 0)`, on a shuffle from a lane the block
    // picks and on a shuffled uniform value were `possible` divergent branches ("depends on a
    // value from another lane"); the width-16 broadcast and the neighbour's value stay so.
    exact("shuffle_broadcast");
}

#[test]
fn an_alignment_test_of_a_base_plus_multiples_of_its_alignment_is_warp_uniform() {
    // Before: `(uintptr_t)(src + 4 * rows[g]) % 16 == 0` was a `possible` divergent branch
    // ("its condition depends on loaded data"), as HeCBench's fma float4 paths were; the
    // 8-byte stride stays one (`possible`: the loop inside may run no iteration).
    exact("alignment_test");
}

#[test]
fn a_guard_the_same_in_every_lane_does_not_spend_the_verdict_on_its_loops() {
    // Before: the block-stride loop under `if (!s || j + 1 == iters)` was a boundary note
    // ("evaluation budget spent"): the guard reads the 100000-trip loop `j` and a load through
    // `k`, so both were enumerated, as in HeCBench's lda (kernel.h 139, 146, 168, 179, 199).
    exact("uniform_guard");
}

/// A value read after a loop that lanes leave on different trips is per-lane even when every
/// trip gives all lanes the same one; a value the loop never changes is not.
#[test]
fn a_value_that_changes_each_trip_differs_between_lanes_that_leave_on_different_trips() {
    // Before: the loop bounded by the radius (`k < 2 * s + 1`) was read as the same in every
    // lane, and had no finding.
    exact("loop_exit_value");
}

/// A loop's first exit past the trips examined one by one is found: a block-stride loop of 256
/// trips whose first lane starts a stride late splits its warp on the last trip.
#[test]
fn a_long_loop_whose_lanes_leave_on_different_trips_diverges() {
    // Before: no finding (only the first 64 trips were examined, and all lanes ran them).
    exact("long_stride_loop");
}

/// A kernel that reads `%tid.y`/`%tid.z` only in its linear thread rank keeps the 1-D default;
/// one that reads `%tid.y` in its own index is still analysed in the common 2-D shapes.
#[test]
fn block_shapes_come_from_the_kernels_own_indexing() {
    // Before: `ranked` was analysed in 16x16, 32x8 and 32x32, and `threadIdx.x < 16` was
    // `possible` ("with block 32x8, 32x32, not 16x16").
    let r = exact("block_rank");
    assert_eq!(
        kernel(&r, "ranked").geometry.block_source,
        GeometrySource::LinearRank
    );
    assert_eq!(
        kernel(&r, "rows").geometry.block_source,
        GeometrySource::CommonShape
    );
    assert!(
        r.report
            .kernels
            .iter()
            .any(|k| k.name == "ranked" && k.geometry.contains("only in its linear thread rank"))
    );
}

#[test]
fn constant_tables_read_per_lane_take_one_pass_per_distinct_address() {
    // Before the divergent-constant rule no `ld.const` was measured: none of these was reported.
    let r = exact("const_divergent");
    let passes = |line: u32| {
        let f = r
            .report
            .findings
            .iter()
            .find(|f| {
                f.rule == Rule::DivergentConstant
                    && f.location.cuda.as_ref().is_some_and(|c| c.line == line)
            })
            .unwrap_or_else(|| panic!("a divergent-constant finding on line {line}"));
        let m = f.measures.get("constant_addresses");
        (
            m.map_or(0.0, |m| m.min),
            m.map_or(0.0, |m| m.max),
            f.message.clone(),
        )
    };
    // `table[threadIdx.x & 63]`: 32 distinct words per warp.
    let (lo, hi, msg) = passes(14);
    assert_eq!((lo, hi), (32.0, 32.0), "{msg}");
    assert!(msg.contains("32 serialized passes"), "{msg}");
    // `table[(threadIdx.x / 8) & 63]`: 4 groups of 8 lanes.
    assert_eq!(passes(24).1, 4.0);
    // `table[in[i] & 63]`: the index comes from loaded values.
    let (_, _, msg) = passes(19);
    assert!(msg.contains("loaded values"), "{msg}");
    // Warp-uniform indices (a parameter, the block index): one pass, no finding.
    assert!(
        !r.report
            .findings
            .iter()
            .any(|f| f.rule == Rule::DivergentConstant
                && f.location.cuda.as_ref().is_some_and(|c| c.line == 9))
    );
}

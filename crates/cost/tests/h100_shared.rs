//! The shared-memory model against the H100: `validation/h100/shared_patterns.tsv` holds
//! Nsight Compute's `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum` for one
//! `ld.shared` of 4, 8 and 16 bytes per lane at 59 lane-address patterns each (consecutive,
//! broadcast, strides, repeats, columns, random; several active masks), measured by
//! `scripts/h100/shared_probe.sh`. Every row must match.

use warpscope_cost::shared;

#[test]
fn wavefronts_match_the_h100() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../validation/h100/shared_patterns.tsv"
    );
    let text = std::fs::read_to_string(path).expect("validation/h100/shared_patterns.tsv");
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [size, name, mask, wavefronts, instructions, offsets] = f[..] else {
            panic!("bad row {line:?}");
        };
        let size: u32 = size.parse().unwrap();
        let mask = u32::from_str_radix(mask, 16).unwrap();
        let measured: u32 = wavefronts.parse().unwrap();
        assert_eq!(instructions, "1", "{name}: one ld.shared per launch");
        let offs: Vec<u64> = offsets.split(',').map(|o| o.parse().unwrap()).collect();
        let addrs: [u64; 32] = offs.try_into().expect("32 offsets");
        let ours = shared(&addrs, mask, size).wavefronts;
        rows += 1;
        if ours != measured {
            wrong.push(format!(
                "{size}-byte {name} mask {mask:08x}: model {ours}, H100 {measured}"
            ));
        }
    }
    assert_eq!(rows, 177);
    assert!(
        wrong.is_empty(),
        "{} of {rows} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

//! Exact values are the same bits however often a model is built: "the
//! same spec and seed give byte-identical CSV". A model that sums over a
//! hash map's iteration order (which `std`'s `RandomState` changes with
//! every map) moves the last bit of a value from run to run; the Crisis
//! fight with ammunition once did. Every registered scenario's every test
//! point is built twice in this process (two maps, two orders) and its
//! exact values compared bit for bit.

use krunch::systems::{self, ParamValue, Params, RULE_SETS};

fn exact_bits(system: &str, scenario: &str, p: &Params) -> Option<Vec<u64>> {
    let model = systems::build(system, scenario, p, &Params::new())
        .unwrap_or_else(|e| panic!("{system} {scenario}: {e}"));
    model
        .exact()
        .map(|v| v.iter().map(|x| x.to_bits()).collect())
}

#[test]
fn every_exact_value_is_the_same_bits_built_twice() {
    let mut compared = 0;
    let mut moved = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            for (i, point) in sc.test_points.iter().enumerate() {
                let mut p = Params::new();
                for (k, v) in point.iter() {
                    p.set(*k, ParamValue::from_text(v));
                }
                let first = exact_bits(r.name, sc.name, &p);
                let second = exact_bits(r.name, sc.name, &p);
                if first.is_some() {
                    compared += 1;
                }
                if first != second {
                    moved.push(format!("{} {} point {i}", r.name, sc.name));
                }
            }
        }
    }
    assert!(
        moved.is_empty(),
        "exact values changed between two builds: {moved:?}"
    );
    assert!(
        compared > 100,
        "only {compared} test points had exact values"
    );
}

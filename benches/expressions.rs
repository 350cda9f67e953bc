//! Exact dice-expression queries, the set `benches/peers.py` also times in
//! icepool 2.1.3 (each query parsed and evaluated from scratch).

use criterion::{Criterion, criterion_group, criterion_main};
use krunch::dice::Expr;
use std::hint::black_box;

/// (criterion id, expression): keep in step with `QUERIES` in benches/peers.py.
pub const QUERIES: &[(&str, &str)] = &[
    ("12d6", "12d6"),
    ("4d6_keep_3", "4d6k3"),
    ("5d10_keep_3_exploding", "5d10!9k3"),
    ("10d10_keep_5_exploding", "10d10!9k5"),
    ("highest_5_of_10d100", "10d100k5"),
    ("3d6_vs_3d6", "3d6>3d6"),
];

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("expressions");
    for (id, text) in QUERIES {
        g.bench_function(*id, |b| {
            b.iter(|| black_box(Expr::parse(text).map(|e| e.exact())))
        });
    }
    g.finish();
}

criterion_group!(benches, exact);
criterion_main!(benches);

//! Complete GCE shot trials (hit with the 7+ chain, ammo, wound, save,
//! injury, recovery): the branch-free fast path, the general rule sampler,
//! and a naive per-die implementation of the same trial, in one run; then
//! 2 threads against 1 on 10 million trials.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Tally};
use krunch::experiment::simulate;
use krunch::systems::gce::build_shooting;
use krunch::systems::gce::shooting::ShootingModel;
use krunch::systems::{Model, ParamValue, Params};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

const TRIALS: u64 = 1 << 20;

/// BS 3 Shoota at 8" against T3, 1 wound, 5+ save, WS/BS 3.
fn model() -> ShootingModel {
    let mut p = Params::new();
    for (k, v) in [
        ("weapon", ParamValue::Str("shoota".into())),
        ("bs", ParamValue::Int(3)),
        ("range", ParamValue::Int(8)),
        ("toughness", ParamValue::Int(3)),
        ("wounds", ParamValue::Int(1)),
        ("save", ParamValue::Int(5)),
        ("target_ws", ParamValue::Int(3)),
        ("target_bs", ParamValue::Int(3)),
    ] {
        p.set(k, v);
    }
    build_shooting(&p, &Params::new()).expect("valid bench model")
}

/// The same trial written the obvious way: one `random_range` per die,
/// branching on every result.
fn naive_trials(rng: &mut Xoshiro256PlusPlus, n: u64) -> [u64; 6] {
    let mut c = [0u64; 6];
    let d6 = |rng: &mut Xoshiro256PlusPlus| rng.random_range(1..=6u32);
    for _ in 0..n {
        let first = d6(rng);
        if first == 6 && d6(rng) < 4 {
            c[4] += 1; // out of ammo
        }
        let needed = 7 - 3 - 1; // BS 3, short range +1
        let hit = first != 1 && first >= needed;
        if !hit {
            continue;
        }
        c[0] += 1;
        if d6(rng) < 4 {
            continue; // S3 vs T3 wounds on 4+
        }
        if d6(rng) >= 5 {
            continue; // saved
        }
        c[1] += 1;
        match d6(rng) {
            1 | 2 => c[2] += 1,
            3..=5 => {
                c[3] += 1;
                loop {
                    match d6(rng) {
                        6 => {
                            c[5] += 1;
                            break;
                        }
                        1 | 2 => break,
                        _ => {}
                    }
                }
            }
            _ => c[5] += 1,
        }
    }
    c
}

fn shot_trials(c: &mut Criterion) {
    let m = model();
    let mut g = c.benchmark_group("gce_shot_trial");
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("naive per-die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        b.iter(|| black_box(naive_trials(&mut rng, TRIALS)))
    });
    g.bench_function("general rule sampler", |b| {
        let mut r = BatchedRoller::new(3, &[0]);
        b.iter(|| {
            let mut t = Tally::new(m.metrics().len());
            m.run_general(&mut r, TRIALS, &mut t);
            black_box(t)
        })
    });
    g.bench_function("fast path", |b| {
        let mut r = BatchedRoller::new(3, &[0]);
        b.iter(|| {
            let mut t = Tally::new(m.metrics().len());
            m.run_fast(&mut r, TRIALS, &mut t);
            black_box(t)
        })
    });
    g.finish();
}

fn threads(c: &mut Criterion) {
    let m = model();
    let trials = 10_000_000;
    let mut g = c.benchmark_group("ten_million_trials");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    for n in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("thread pool");
        g.bench_function(format!("{n} thread(s)"), |b| {
            b.iter(|| pool.install(|| black_box(simulate(&m, 9, trials, &|_| {}))))
        });
    }
    g.finish();
}

criterion_group!(benches, shot_trials, threads);
criterion_main!(benches);

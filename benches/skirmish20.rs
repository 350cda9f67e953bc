//! D20 skirmish tables: every scenario's test points (Monte Carlo trials per
//! second on one core, and the exact evaluation), the example spec's squads
//! (ten shooters into ten figures over four turns), and a naive per-die loop
//! of the bolt rifle's turn of fire for the ratio.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Tally};
use krunch::systems::skirmish20::RULES;
use krunch::systems::{ParamValue, Params, build};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Duration;

const TRIALS: u64 = 1 << 16;

/// A scenario, a label for the point, and its parameters.
type Point<'a> = (&'a str, String, &'a [(&'a str, &'a str)]);

fn params(pairs: &[(&str, &str)]) -> Params {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    p
}

/// The bolt rifle at 12" against standard armour, one `random_range` per
/// die: two shots at 8 or less, a 20 jams, each hit a D6 on the trooper
/// column. Counts hits and deaths.
fn naive_bolt_rifle(rng: &mut Xoshiro256PlusPlus, n: u64) -> [u64; 2] {
    let mut c = [0u64; 2];
    for _ in 0..n {
        let mut dead = false;
        let mut wounds = 0;
        for _ in 0..2 {
            let roll = rng.random_range(1..=20u32);
            if roll == 20 {
                break;
            }
            if roll <= 8 {
                c[0] += 1;
                match rng.random_range(1..=6u32) {
                    1 | 2 => {}
                    3 | 4 => {
                        wounds += 1;
                        dead |= wounds >= 2;
                    }
                    _ => dead = true,
                }
            }
        }
        c[1] += u64::from(dead);
    }
    c
}

fn scenarios(c: &mut Criterion) {
    let mut g = c.benchmark_group("skirmish20");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("shooting naive loop", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        b.iter(|| black_box(naive_bolt_rifle(&mut rng, TRIALS)))
    });
    let squads: [&[(&str, &str)]; 2] = [
        &[
            ("shooters", "10"),
            ("weapon", "laser_assault_rifle"),
            ("range", "12"),
            ("armour", "power"),
            ("troopers", "10"),
            ("necrons", "true"),
        ],
        &[
            ("shooters", "10"),
            ("weapon", "necron_rifle"),
            ("range", "12"),
            ("armour", "std"),
            ("troopers", "9"),
            ("hero", "true"),
        ],
    ];
    let mut points: Vec<Point> = Vec::new();
    for sc in RULES.scenarios {
        for (i, point) in sc.test_points.iter().enumerate() {
            points.push((sc.name, i.to_string(), point));
        }
    }
    for (i, point) in squads.iter().enumerate() {
        points.push(("squad_under_fire", format!("spec {i}"), point));
    }
    for (name, i, point) in points {
        let m =
            build(RULES.name, name, &params(point), &Params::new()).expect("test points are valid");
        g.throughput(Throughput::Elements(TRIALS));
        g.bench_function(format!("{name} {i} monte carlo"), |b| {
            let mut r = BatchedRoller::new(5, &[0]);
            b.iter(|| {
                let mut t = Tally::new(m.metrics().len());
                m.run_chunk(&mut r, TRIALS, &mut t);
                black_box(t)
            })
        });
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("{name} {i} exact"), |b| {
            b.iter(|| black_box(m.exact()))
        });
    }
    g.finish();
}

criterion_group!(benches, scenarios);
criterion_main!(benches);

//! Shooting a vehicle: the hits a volley lands, one location roll per
//! point of Damage, penetration, the save, the Damage Tables, templates
//! (Full Hit D3 hits, Partial Hit 4+), a template on the Crew location
//! hitting every warrior aboard, and Catching Fire.
//!
//! Exact by counts: every point of damage lands, penetrates and catches
//! fire independently of the others, so given the number of points `T`
//! the tallies are binomial; the law of `T` is a convolution of the hits'
//! and Damage's laws. Crew warriors are alike and each takes every
//! template hit on the Crew location, so their condition is the law of
//! `c` hits through the warrior pipeline, `c ~ Binomial(T, 1/6)`.

use super::damage::{Penetration, Vehicle};
use crate::dice::{
    BatchedRoller, Dist, Metric, MetricSink, Replay, Roller, StateDist, Tally, Times, binomial_pmf,
};
use crate::engine::faces::FaceTable;
use crate::systems::gce::tables::hit_with;
use crate::systems::gce::warrior::{Condition, Hit, Status, WarriorStats};
use crate::systems::{MetricDecl, MetricDef, MetricList, Model, Sampler, TrialValues};

/// How a template lies over the vehicle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// Not a template weapon: each shot is one hit if it hits.
    Shot,
    /// "A Full Hit inflicts D3 Hits on a Vehicle."
    Full,
    /// "Roll a D6 - on a 4+ the Vehicle takes a single Hit."
    Partial,
}

/// The warriors aboard, all alike, for template hits on the Crew location.
#[derive(Clone, Debug)]
pub struct Crew {
    /// How many are aboard (the Gunner and every warrior aboard).
    pub count: u8,
    /// Their profile.
    pub stats: WarriorStats,
}

/// One volley at one vehicle.
#[derive(Clone, Debug)]
pub struct Volley {
    /// The target.
    pub vehicle: Vehicle,
    /// Shots fired (templates: one), when not on full auto.
    pub shots: u32,
    /// Sustained Fire dice fired on full auto (0: `shots` single shots):
    /// "Roll a sustained fire dice to see how many shots you can resolve";
    /// "When a jam is rolled then no shots are inflicted by that dice".
    pub sustained_fire_dice: u32,
    /// The to-hit score each shot needs, or `None` when the shots hit.
    pub to_hit: Option<i32>,
    /// Shot, Full Hit or Partial Hit.
    pub cover: Cover,
    /// How each point gets through the armour.
    pub penetration: Penetration,
    /// The hit on a warrior (Strength, save modifier, Damage); its Damage
    /// is also the points each hit deals the vehicle.
    pub hit: Hit,
    /// "Catching Fire": the score a hit location catches fire on.
    pub catch_fire: Option<u32>,
    /// Warriors aboard for a template's Crew hits.
    pub crew: Option<Crew>,
}

/// Every metric of the vehicle-hits scenario.
pub const VEHICLE_HIT_METRICS: [MetricDecl; 16] = [
    MetricDecl::mean(
        "mean_points",
        "mean damage points on the vehicle",
        "expected points of Damage landing on the vehicle (one location roll each)",
    ),
    MetricDecl::probability(
        "p_penetrated",
        "P(at least one penetrating hit)",
        "P(at least one point penetrates and is not saved)",
    ),
    MetricDecl::mean(
        "mean_penetrating",
        "mean penetrating hits",
        "expected penetrating, unsaved hits",
    ),
    MetricDecl::probability(
        "p_penetrating_{k}_plus",
        "P({k}+ penetrating hits)",
        "P(at least k penetrating hits), k from 2",
    ),
    MetricDecl::mean(
        "mean_pen_{k}",
        "mean penetrating hits on the {k}",
        "expected penetrating hits on this location",
    ),
    MetricDecl::probability(
        "p_pen_{k}",
        "P({k} penetrated)",
        "P(this location takes at least one penetrating hit)",
    ),
    MetricDecl::mean(
        "mean_effect_{k}",
        "mean '{k}' results",
        "expected Damage Table results of this name",
    ),
    MetricDecl::probability(
        "p_effect_{k}",
        "P(at least one '{k}')",
        "P(at least one Damage Table result of this name)",
    ),
    MetricDecl::probability(
        "p_fire",
        "P(vehicle catches fire)",
        "P(at least one location catches fire)",
    ),
    MetricDecl::probability(
        "p_fire_{k}",
        "P({k} on fire)",
        "P(this location catches fire)",
    ),
    MetricDecl::mean(
        "mean_crew_hits",
        "mean hits on warriors aboard",
        "expected warrior hits from template hits on the Crew location",
    ),
    MetricDecl::mean(
        "mean_crew_down",
        "mean crew down",
        "expected warriors aboard left Down",
    ),
    MetricDecl::mean(
        "mean_crew_out_of_action",
        "mean crew out of action",
        "expected warriors aboard taken Out of Action",
    ),
    MetricDecl::probability(
        "p_crew_out_of_action",
        "P(a crew member out of action)",
        "P(at least one warrior aboard is taken Out of Action)",
    ),
    MetricDecl::probability(
        "p_crew_down_or_out",
        "P(a crew member down or out)",
        "P(at least one warrior aboard is Down or Out of Action)",
    ),
    MetricDecl::mean(
        "mean_hits",
        "mean hits on the vehicle",
        "expected hits landing (a template's Full Hit counts D3)",
    ),
];

/// Metric handles of one volley's model.
struct Handles {
    points: Metric,
    hits: Metric,
    any_pen: Metric,
    pens: Metric,
    at_least: Vec<Metric>,
    per_location: Vec<(Metric, Metric)>,
    effects: Vec<(Metric, Metric)>,
    fire: Option<(Metric, Vec<Metric>)>,
    crew: Option<[Metric; 5]>,
}

/// The vehicle-hits model.
pub struct VolleyModel {
    volley: Volley,
    list: MetricList,
    m: Handles,
    /// Most points of damage a volley can deal.
    max_points: usize,
    /// Every face combination of a volley's dice with its outcome, where
    /// the dice are few (laid out the first time the model samples).
    faces: std::sync::OnceLock<Option<FaceTable<Outcome>>>,
}

/// A location's name as people read it.
fn words(name: &str) -> String {
    name.replace('_', " ")
}

impl Volley {
    /// Per shot: the law of the hits it lands.
    fn hits_law(&self) -> Dist {
        match (self.cover, self.to_hit) {
            (Cover::Full, _) => Dist::die(3),
            (Cover::Partial, _) => Dist::faces(&[0, 1]),
            (Cover::Shot, None) => Dist::constant(1),
            (Cover::Shot, Some(needed)) => {
                let p = crate::systems::gce::tables::hit_probability(needed);
                Dist::from_pairs([(0, 1.0 - p), (1, p)])
            }
        }
    }

    /// The law of the shots fired: fixed, or the Sustained Fire dice's
    /// (faces 1, 1, 2, 2, 3 and JAM!, a jam no shot).
    fn shots_law(&self) -> Dist {
        if self.sustained_fire_dice == 0 {
            return Dist::constant(i64::from(self.shots));
        }
        let die = Dist::from_pairs((1..=6).map(|f| {
            let shots = crate::systems::gce::tables::sustained_fire(f).unwrap_or(0);
            (i64::from(shots), 1.0 / 6.0)
        }));
        die.sum_of(self.sustained_fire_dice)
    }

    /// The law of a sum over the volley's shots of `per_shot` each.
    fn over_shots(&self, per_shot: &Dist) -> Dist {
        Dist::mixture(
            &self
                .shots_law()
                .iter()
                .map(|(n, p)| (p, per_shot.sum_of(n as u32)))
                .collect::<Vec<_>>(),
        )
    }

    /// The law of hits landed by the whole volley.
    fn volley_hits(&self) -> Dist {
        self.over_shots(&self.hits_law())
    }

    /// The law of points of damage landed by the whole volley.
    fn points_law(&self) -> Dist {
        let per_hit = self.hit.damage.law();
        let per_shot = Dist::mixture(
            &self
                .hits_law()
                .iter()
                .map(|(h, p)| (p, per_hit.sum_of(h as u32)))
                .collect::<Vec<_>>(),
        );
        self.over_shots(&per_shot)
    }

    /// Whether template hits on the Crew location hit the warriors aboard.
    fn crew_location(&self) -> Option<usize> {
        match (&self.crew, self.cover) {
            (Some(c), Cover::Full | Cover::Partial) if c.count > 0 => self.vehicle.crew_location(),
            _ => None,
        }
    }

    /// The model with its metric handles.
    pub fn into_model(self) -> VolleyModel {
        let mut list = MetricList::new();
        let d = &VEHICLE_HIT_METRICS;
        let max_points = self.points_law().max_value().max(0) as usize;
        let hits = list.add(&d[15]);
        let points = list.add(&d[0]);
        let any_pen = list.add(&d[1]);
        let pens = list.add(&d[2]);
        let at_least = list.family(&d[3], 2..=max_points.clamp(1, 6));
        let per_location = self
            .vehicle
            .locations
            .iter()
            .map(|l| {
                (
                    list.add_k_worded(&d[4], &l.name, &words(&l.name)),
                    list.add_k_worded(&d[5], &l.name, &words(&l.name)),
                )
            })
            .collect();
        let effects = self
            .vehicle
            .effects
            .iter()
            .map(|e| {
                (
                    list.add_k_worded(&d[6], e, &words(e)),
                    list.add_k_worded(&d[7], e, &words(e)),
                )
            })
            .collect();
        let fire = self.catch_fire.map(|_| {
            let any = list.add(&d[8]);
            let each = self
                .vehicle
                .locations
                .iter()
                .map(|l| list.add_k_worded(&d[9], &l.name, &words(&l.name)))
                .collect();
            (any, each)
        });
        let crew = self
            .crew_location()
            .map(|_| [10, 11, 12, 13, 14].map(|i| list.add(&d[i])));
        VolleyModel {
            volley: self,
            list,
            m: Handles {
                points,
                hits,
                any_pen,
                pens,
                at_least,
                per_location,
                effects,
                fire,
                crew,
            },
            max_points,
            faces: std::sync::OnceLock::new(),
        }
    }
}

/// Most distinct Damage Table results a vehicle may name.
pub const MOST_EFFECTS: usize = 16;

/// Most warriors aboard.
pub const MOST_CREW: usize = 10;

/// One trial's tallies, small and flat: trials are counted by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Outcome {
    hits: u16,
    points: u16,
    pens: [u8; 6],
    effects: [u8; MOST_EFFECTS],
    fire: u8,
    crew_hits: u16,
    crew_down: u8,
    crew_out: u8,
}

impl VolleyModel {
    fn faces(&self) -> Option<&FaceTable<Outcome>> {
        self.faces
            .get_or_init(|| FaceTable::build(|d| self.trial(d)))
            .as_ref()
    }

    /// The volley.
    pub fn volley(&self) -> &Volley {
        &self.volley
    }

    fn trial(&self, dice: &mut impl Roller) -> Outcome {
        let v = &self.volley;
        let mut o = Outcome::default();
        let crew_at = v.crew_location();
        let (mut aboard, fresh) = match &v.crew {
            Some(c) if crew_at.is_some() => (usize::from(c.count), c.stats.fresh()),
            _ => (0, Condition::new(1, 1, 1)),
        };
        aboard = aboard.min(MOST_CREW);
        let mut crew = [fresh; MOST_CREW];
        let crew = &mut crew[..aboard];
        let shots = if v.sustained_fire_dice == 0 {
            v.shots
        } else {
            (0..v.sustained_fire_dice)
                .map(|_| crate::systems::gce::tables::sustained_fire(dice.d6()).unwrap_or(0))
                .sum()
        };
        for _ in 0..shots {
            let hits = match (v.cover, v.to_hit) {
                (Cover::Full, _) => crate::systems::gce::tables::d3(dice),
                (Cover::Partial, _) => u32::from(dice.d6() >= 4),
                (Cover::Shot, None) => 1,
                (Cover::Shot, Some(needed)) => {
                    let first = dice.d6();
                    u32::from(hit_with(first, needed, dice))
                }
            };
            o.hits += hits as u16;
            for _ in 0..hits {
                let points = v.hit.damage.roll(dice);
                o.points += points as u16;
                for _ in 0..points {
                    let at = dice.d6() as usize - 1;
                    if Some(at) == crew_at {
                        let stats = &v.crew.as_ref().expect("crew_at needs crew").stats;
                        for c in crew.iter_mut() {
                            c.take_hit(dice, stats, &v.hit);
                        }
                        o.crew_hits += crew.len() as u16;
                    } else {
                        let s = v.vehicle.struck_at(dice, at, v.penetration);
                        if s.penetrating {
                            o.pens[at] += 1;
                        }
                        if let Some(e) = s.effect {
                            o.effects[usize::from(e)] += 1;
                        }
                    }
                    if v.catch_fire.is_some_and(|n| dice.d6() >= n) {
                        o.fire |= 1 << at;
                    }
                }
            }
        }
        o.crew_down = crew.iter().filter(|c| c.status == Status::Down).count() as u8;
        o.crew_out = crew
            .iter()
            .filter(|c| c.status == Status::OutOfAction)
            .count() as u8;
        o
    }

    fn record(&self, o: &Outcome, sink: &mut impl MetricSink) {
        let m = &self.m;
        let total: u32 = o.pens.iter().map(|&p| u32::from(p)).sum();
        sink.record(m.hits, u64::from(o.hits));
        sink.record(m.points, u64::from(o.points));
        sink.record(m.any_pen, u64::from(total > 0));
        sink.record(m.pens, u64::from(total));
        for (k, &h) in m.at_least.iter().enumerate() {
            sink.record(h, u64::from(total >= k as u32 + 2));
        }
        for (j, &(mean, any)) in m.per_location.iter().enumerate() {
            sink.record(mean, u64::from(o.pens[j]));
            sink.record(any, u64::from(o.pens[j] > 0));
        }
        for (e, &(mean, any)) in m.effects.iter().enumerate() {
            sink.record(mean, u64::from(o.effects[e]));
            sink.record(any, u64::from(o.effects[e] > 0));
        }
        if let Some((any, each)) = &m.fire {
            sink.record(*any, u64::from(o.fire != 0));
            for (j, &h) in each.iter().enumerate() {
                sink.record(h, u64::from(o.fire & (1 << j) != 0));
            }
        }
        if let Some([hits, down, out, p_out, p_down]) = m.crew {
            sink.record(hits, u64::from(o.crew_hits));
            sink.record(down, u64::from(o.crew_down));
            sink.record(out, u64::from(o.crew_out));
            sink.record(p_out, u64::from(o.crew_out > 0));
            sink.record(p_down, u64::from(o.crew_out + o.crew_down > 0));
        }
    }

    /// The law of one warrior's condition after `c` hits, for `c` up to
    /// `most`, hit by hit through the warrior pipeline.
    fn crew_laws(&self, most: usize) -> Option<Vec<Vec<(Condition, f64)>>> {
        let crew = self.volley.crew.as_ref()?;
        let mut d = StateDist::certain(crew.stats.fresh());
        let mut out = vec![d.iter().map(|(c, p)| (*c, p)).collect()];
        for _ in 0..most {
            d = d
                .step(1 << 16, |r: &mut Replay, c| {
                    c.take_hit(r, &crew.stats, &self.volley.hit);
                })
                .ok()?;
            out.push(d.iter().map(|(c, p)| (*c, p)).collect());
        }
        Some(out)
    }
}

impl Model for VolleyModel {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    /// Trials are counted by outcome and each outcome recorded once: a
    /// volley has few distinct outcomes, so recording costs nothing per
    /// trial.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut seen: foldhash::HashMap<Outcome, u64> = Default::default();
        if let Some(table) = self.faces() {
            let counts = table.count(
                roller,
                trials,
                |d| self.trial(d),
                |o| *seen.entry(o).or_insert(0) += 1,
            );
            for (o, count) in table.ends().iter().zip(counts) {
                *seen.entry(*o).or_insert(0) += count;
            }
        } else {
            for _ in 0..trials {
                *seen.entry(self.trial(roller)).or_insert(0) += 1;
            }
        }
        seen.retain(|_, n| *n > 0);
        let mut outcomes: Vec<(Outcome, u64)> = seen.into_iter().collect();
        // a fixed order, so the tally's sums are the same whatever the map's
        outcomes.sort_unstable_by_key(|(o, _)| {
            (
                o.hits,
                o.points,
                o.pens,
                o.effects,
                o.fire,
                o.crew_hits,
                o.crew_down,
                o.crew_out,
            )
        });
        for (o, count) in outcomes {
            self.record(&o, &mut Times { tally, count });
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        if self.faces().is_some() {
            return Sampler::FaceTable;
        }
        Sampler::CountedDice
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let v = &self.volley;
        let m = &self.m;
        let points = v.points_law();
        let crew_at = v.crew_location();
        // per point: P(penetrating on j), P(effect e), P(fire on j)
        let q: Vec<f64> = (0..6)
            .map(|j| {
                if Some(j) == crew_at {
                    0.0
                } else {
                    v.vehicle.p_penetrating(j, v.penetration) / 6.0
                }
            })
            .collect();
        let q_total: f64 = q.iter().sum();
        let r: Vec<f64> = (0..v.vehicle.effects.len())
            .map(|e| {
                (0..6)
                    .map(|j| q[j] * v.vehicle.p_effect_given_penetrating(j, e as u8))
                    .sum()
            })
            .collect();
        let fire = v.catch_fire.map_or(0.0, |n| f64::from(7 - n.min(7)) / 6.0);
        // E[x^T] for the points' law
        let power_mean = |x: f64| -> f64 { points.iter().map(|(t, p)| p * x.powi(t as i32)).sum() };
        let mean_t = points.mean();
        let mut out = vec![0.0; self.list.len()];
        let mut set = |h: Metric, value: f64| out[h.index()] = value;
        set(m.hits, v.volley_hits().mean());
        set(m.points, mean_t);
        set(m.any_pen, 1.0 - power_mean(1.0 - q_total));
        set(m.pens, mean_t * q_total);
        for (k, &h) in m.at_least.iter().enumerate() {
            let k = k as u64 + 2;
            let p: f64 = points
                .iter()
                .map(|(t, pt)| {
                    let t = t as u64;
                    pt * (k..=t).map(|i| binomial_pmf(t, i, q_total)).sum::<f64>()
                })
                .sum();
            set(h, p);
        }
        for (j, &(mean, any)) in m.per_location.iter().enumerate() {
            set(mean, mean_t * q[j]);
            set(any, 1.0 - power_mean(1.0 - q[j]));
        }
        for (i, &(mean, any)) in m.effects.iter().enumerate() {
            set(mean, mean_t * r[i]);
            set(any, 1.0 - power_mean(1.0 - r[i]));
        }
        if let Some((any, each)) = &m.fire {
            set(*any, 1.0 - power_mean(1.0 - fire));
            for &h in each {
                set(h, 1.0 - power_mean(1.0 - fire / 6.0));
            }
        }
        if let Some([hits, down, out_m, p_out, p_down]) = m.crew {
            let n = i32::from(v.crew.as_ref().map_or(0, |c| c.count));
            let laws = self.crew_laws(self.max_points)?;
            let (mut d_mean, mut o_mean, mut any_out, mut any_hurt) = (0.0, 0.0, 0.0, 0.0);
            for (t, pt) in points.iter() {
                let t = t as u64;
                for c in 0..=t {
                    let pc = pt * binomial_pmf(t, c, 1.0 / 6.0);
                    let law = &laws[c as usize];
                    let o: f64 = law
                        .iter()
                        .filter(|(x, _)| x.status == Status::OutOfAction)
                        .map(|(_, p)| p)
                        .sum();
                    let d: f64 = law
                        .iter()
                        .filter(|(x, _)| x.status == Status::Down)
                        .map(|(_, p)| p)
                        .sum();
                    d_mean += pc * f64::from(n) * d;
                    o_mean += pc * f64::from(n) * o;
                    any_out += pc * (1.0 - (1.0 - o).powi(n));
                    any_hurt += pc * (1.0 - (1.0 - o - d).max(0.0).powi(n));
                }
            }
            set(hits, f64::from(n) * mean_t / 6.0);
            set(down, d_mean);
            set(out_m, o_mean);
            set(p_out, any_out);
            set(p_down, any_hurt);
        }
        Some(out)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let o = self.trial(roller);
        self.record(&o, &mut TrialValues(values));
    }
}

/// A template weapon's Damage is dealt per point on the vehicle; the Ruzt
/// example checks the Crew rule on exact dice.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::assert_exact_is_every_roll;
    use crate::systems::gce::vehicles::damage::{Size, test_trukk};
    use crate::systems::gce::warrior::Damage;

    use crate::dice::testing::Faces;

    fn trak() -> Vehicle {
        test_trukk(Size::Large, "traks")
    }

    fn boy() -> WarriorStats {
        WarriorStats {
            toughness: 4,
            wounds: 1,
            save: None,
            ws: 3,
            bs: 3,
            pin_immune: false,
        }
    }

    /// "Grimlug’z Trak, Ruzt, takes a Full Hit from a Stikkbomb. D3 hits
    /// are rolled resulting in a Hit to the Traks and a Hit to the Crew.
    /// The Traks take one Hit. There’s four Crew onboard ... so four Hits
    /// to the Crew location are resolved."
    #[test]
    fn ruzt_full_hit_stikkbomb_hits_the_traks_once_and_each_of_four_crew() {
        let model = Volley {
            vehicle: trak(),
            shots: 1,
            sustained_fire_dice: 0,
            to_hit: None,
            cover: Cover::Full,
            penetration: Penetration::Strength {
                strength: 3,
                bonus_die: false,
            },
            hit: Hit::by_strength(3, Damage::fixed(1)),
            catch_fire: None,
            crew: Some(Crew {
                count: 4,
                stats: boy(),
            }),
        }
        .into_model();
        // D3 = 2 (a D6 of 3 or 4), location 4 (traks), penetration 5 + 3 = 8
        // (penetrates), location 1 (crew), then four wound rolls of 1
        let mut dice = Faces([4, 4, 5, 1, 1, 1, 1, 1].into());
        let o = model.trial(&mut dice);
        assert!(dice.0.is_empty(), "every die used: {:?}", dice.0);
        assert_eq!((o.hits, o.points), (2, 2));
        assert_eq!(o.pens, [0, 0, 0, 1, 0, 0], "the Traks take one Hit");
        assert_eq!(o.crew_hits, 4, "four Hits to the Crew location");
        assert_eq!((o.crew_down, o.crew_out), (0, 0));
    }

    /// Exact vs enumerating every roll of small volleys (one with the
    /// Crew rule, a save and a Damage Table; one catching fire).
    #[test]
    fn exact_counts_agree_with_enumerating_every_roll() {
        let mut v = trak();
        v.effects = vec!["none".into(), "stalled".into()];
        v.tables[5] = Some([0, 0, 0, 1, 1, 1]);
        v.save = Some(6);
        let with_crew = Volley {
            vehicle: v,
            shots: 1,
            sustained_fire_dice: 0,
            to_hit: None,
            cover: Cover::Partial,
            penetration: Penetration::Strength {
                strength: 4,
                bonus_die: false,
            },
            hit: Hit::by_strength(4, Damage::fixed(2)),
            catch_fire: None,
            crew: Some(Crew {
                count: 1,
                stats: boy(),
            }),
        };
        let burning = Volley {
            vehicle: trak(),
            catch_fire: Some(4),
            crew: None,
            cover: Cover::Shot,
            to_hit: Some(4),
            shots: 2,
            sustained_fire_dice: 0,
            hit: Hit::by_strength(5, Damage::fixed(1)),
            ..with_crew.clone()
        };
        for volley in [with_crew, burning] {
            let model = volley.into_model();
            let exact = model.exact().unwrap();
            let names: Vec<String> = model.metrics().iter().map(|m| m.name.clone()).collect();
            assert_exact_is_every_roll(&names, &exact, 1 << 22, |r, values| {
                let t = model.trial(r);
                model.record(&t, &mut TrialValues(values));
            });
        }
    }
}

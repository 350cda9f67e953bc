//! Ramming actions, collisions and crashes (Vehicles: Ramming; Collisions,
//! Unintentional Ramming; Crashes), with every small/large case the seed
//! lists, the Swerve test, the "did they collide" roll, and head-on rams
//! as a game: each driver secretly picks left, straight or right.
//!
//! Every point of ramming damage "automatically penetrates armour" and
//! goes to a location like any other damage (the vehicle's save still
//! applies: Step 3 follows Step 2 for every hit). Exact in closed form:
//! given the impact, the two vehicles' damage rolls are independent, and
//! each point's location and save are independent of the others.

use super::damage::{Penetration, Size, Vehicle};
use crate::dice::{
    BatchedRoller, Dist, Metric, MetricSink, Mix, Roller, Tally, Times, guarantees, solve_zero_sum,
};
use crate::engine::faces::FaceTable;
use crate::systems::gce::tables::{d3, leadership_test};
use crate::systems::{MetricDecl, MetricDef, MetricList, Model, Sampler, TrialValues};

/// What hits what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impact {
    /// Opposite directions within 2".
    Rake,
    /// Same direction within 2".
    Sideswipe,
    /// A ram into the target's rear.
    Shunt,
    /// A ram into the target's side.
    TBone,
    /// Front to front, each driver choosing left, straight or right.
    HeadOn,
    /// An unintentional front-to-front collision.
    CollisionFront,
    /// An unintentional side-to-side collision.
    CollisionSide,
    /// Any other collision (rear to side ...).
    CollisionOther,
    /// The front into terrain.
    CrashFront,
    /// A side or the rear into terrain.
    CrashSide,
}

impl Impact {
    /// Every impact with its spec name.
    pub const NAMES: &'static [&'static str] = &[
        "rake",
        "sideswipe",
        "shunt",
        "t_bone",
        "head_on",
        "collision_front",
        "collision_side",
        "collision_other",
        "crash_front",
        "crash_side",
    ];

    /// The impact named `name` in a spec.
    pub fn named(name: &str) -> Option<Impact> {
        use Impact::*;
        let all = [
            Rake,
            Sideswipe,
            Shunt,
            TBone,
            HeadOn,
            CollisionFront,
            CollisionSide,
            CollisionOther,
            CrashFront,
            CrashSide,
        ];
        Self::NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }

    /// Crashes are into terrain: there is no second vehicle.
    pub fn is_crash(self) -> bool {
        matches!(self, Impact::CrashFront | Impact::CrashSide)
    }

    /// Collisions and crashes may be uncertain ("If you’re unsure whether
    /// two Vehicles Crashed roll a D6 ... on a 4+ resolve a Collision";
    /// Clipping: "If the result is 4+ treat it as a Collision or Crash").
    pub fn may_be_uncertain(self) -> bool {
        matches!(
            self,
            Impact::CollisionFront
                | Impact::CollisionSide
                | Impact::CollisionOther
                | Impact::CrashFront
                | Impact::CrashSide
        )
    }

    /// The target may take a Leadership Test to Swerve: rakes,
    /// sideswipes, shunts, T-bones and collisions ("Drivers may not
    /// attempt to Swerve to avoid Crashes"; head-on rams have "no
    /// Leadership Test").
    pub fn swerve_test(self) -> bool {
        !self.is_crash() && self != Impact::HeadOn
    }
}

/// Damage one vehicle takes from an impact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// None.
    None,
    /// One point.
    One,
    /// D3.
    D3,
    /// D3 - 1 (a large vehicle raked).
    D3Less1,
    /// D6.
    D6,
    /// One point on a 4+ (sideswipes, side and rear crashes).
    OneOn4,
}

impl Points {
    /// The law of the points.
    pub fn law(self) -> Dist {
        match self {
            Points::None => Dist::constant(0),
            Points::One => Dist::constant(1),
            Points::D3 => Dist::die(3),
            Points::D3Less1 => Dist::faces(&[0, 1, 2]),
            Points::D6 => Dist::die(6),
            Points::OneOn4 => Dist::faces(&[0, 1]),
        }
    }

    /// Rolls the points.
    pub fn roll(self, dice: &mut impl Roller) -> u32 {
        match self {
            Points::None => 0,
            Points::One => 1,
            Points::D3 => d3(dice),
            Points::D3Less1 => d3(dice) - 1,
            Points::D6 => dice.d6(),
            Points::OneOn4 => u32::from(dice.d6() >= 4),
        }
    }
}

crate::variant_enum! {
    /// How the rake's "larger Vehicles only take D3 -1" reads.
    pub enum LargeRake = "large_rake" {
        /// Only when raked with a small vehicle (the paragraph is about small
        /// vehicles): two Trukks take D3 each.
        VersusSmall = "versus_small",
        /// Every large vehicle raked takes D3 - 1.
        Always = "always",
    }
    about: "Rakes: \"larger Vehicles only take D3 -1\" when raked with a small vehicle ('versus_small', the paragraph is about small vehicles) or whenever raked ('always')",
}

/// What one vehicle suffers: its points and whether it rolls the 4+
/// Immobilisation.
pub type Suffers = (Points, bool);

/// The seed's damage for `impact` between a rammer of size `r` and a target
/// of size `t`: (rammer, target).
pub fn damage(impact: Impact, r: Size, t: Size, rake: LargeRake) -> (Suffers, Suffers) {
    use Points::*;
    use Size::*;
    let no = (None, false);
    match impact {
        // "Roll a D3 for each Vehicle ... Small Vehicles (e.g. Bikes) take
        // Damage and Krunch away as normal but larger Vehicles only take D3
        // -1 Damage from the impact"
        Impact::Rake => {
            let one = |me: Size, other: Size| {
                let less = me == Large && (rake == LargeRake::Always || other == Small);
                (if less { D3Less1 } else { D3 }, false)
            };
            (one(r, t), one(t, r))
        }
        // "On a 4+ the Vehicle takes 1 point of Damage ... Larger Vehicles
        // cannot be damaged by sideswipes from Small Vehicles"
        Impact::Sideswipe => {
            let one = |me: Size, other: Size| {
                if me == Large && other == Small {
                    no
                } else {
                    (OneOn4, false)
                }
            };
            (one(r, t), one(t, r))
        }
        // "no Damage to the Rammer and 1 point of Damage to the Rammed
        // Vehicle ... A small Vehicle shunting a larger Vehicle won’t
        // inflict any Damage but will inflict a point of Damage against
        // another small Vehicle ... if a small Vehicle is shunted by a
        // larger Vehicle it will take D3 Damage!"
        Impact::Shunt => match (r, t) {
            (Small, Large) => (no, no),
            (Large, Small) => (no, (D3, false)),
            _ => (no, (One, false)),
        },
        // "A Vehicle Ramming the side of another takes 1 point of Damage
        // and inflicts D3 ... Small Vehicles inflict no Damage on larger
        // Vehicles if they T-bone them and larger Vehicles take no Damage
        // when T-boning small Vehicles. Small Vehicles take D3 points of
        // Damage if T-boned and take 1 point of Damage if they T-bone an
        // enemy small Vehicle."
        Impact::TBone => match (r, t) {
            (Small, Large) => ((One, false), no),
            (Large, Small) => (no, (D3, false)),
            _ => ((One, false), (D3, false)),
        },
        // Head-on: "D6 Damage to both ... on a 4+ that Vehicle is
        // Immobilised! Small Vehicles also take D6 Damage but a Large
        // Vehicle Ramming them Head-On will only take 1 point of Damage and
        // won’t be subject to the additional Immobilisation". Front-to-front
        // collisions read the same ("Larger Vehicles hitting small Vehicles
        // take only 1 point of Damage and don’t have to roll for
        // Immobilisation").
        Impact::HeadOn | Impact::CollisionFront => {
            let one = |me: Size, other: Size| {
                if me == Large && other == Small {
                    (One, false)
                } else {
                    (D6, true)
                }
            };
            (one(r, t), one(t, r))
        }
        // "The Vehicles take 1 Damage each. Small Vehicles that are Hit by
        // a larger Vehicle take D3 Damage."
        Impact::CollisionSide => {
            let one = |me: Size, other: Size| {
                if me == Small && other == Large {
                    (D3, false)
                } else {
                    (One, false)
                }
            };
            (one(r, t), one(t, r))
        }
        // "Both Vehicles take 1 point of Damage. Larger Vehicles hitting
        // small Vehicles take no Damage."
        Impact::CollisionOther => {
            let one = |me: Size, other: Size| {
                if me == Large && other == Small {
                    no
                } else {
                    (One, false)
                }
            };
            (one(r, t), one(t, r))
        }
        // "The Vehicle takes D3 Damage. Roll an additional D6 for the
        // Vehicle - on a 4+ it is Immobilised."
        Impact::CrashFront => ((D3, true), no),
        // "roll a D6 - on a 4+ the Vehicle takes 1 point of Damage"
        Impact::CrashSide => ((OneOn4, false), no),
    }
}

/// A driver's choice in a head-on ram.
pub const DIRECTIONS: [&str; 3] = ["left", "straight", "right"];

/// Whether a head-on ram happens: "if they both Swerve towards each other
/// (e.g. the Ramming Vehicle Swerves left and the Target Swerves right) or
/// both choose to move straight on".
pub fn head_on_meets(rammer: usize, target: usize) -> bool {
    matches!((rammer, target), (1, 1) | (0, 2) | (2, 0))
}

/// A mixed strategy as whole-number weights on left, straight, right
/// (drawn exactly as one die with their sum of sides: [`Mix::of_weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mixed(pub [u32; 3]);

impl Mixed {
    /// Uniform: the seed's "places a dice ... 1-2 Swerve Left, 3-4
    /// Straight On, 5-6 Swerve Right" read as a random choice.
    pub const UNIFORM: Mixed = Mixed([1, 1, 1]);

    /// The probabilities.
    pub fn probabilities(self) -> [f64; 3] {
        let total = f64::from(self.0.iter().sum::<u32>());
        self.0.map(|w| f64::from(w) / total)
    }

    /// Probabilities as weights over a common denominator (exact for
    /// every strategy whose probabilities are multiples of `1/DENOMINATOR`).
    pub fn from_probabilities(p: [f64; 3]) -> Mixed {
        const DENOMINATOR: f64 = 720_720.0;
        let w = p.map(|x| (x * DENOMINATOR).round().max(0.0) as u32);
        let g = w.iter().fold(0, |a, &b| gcd(a, b)).max(1);
        Mixed(w.map(|x| x / g))
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The head-on game's reported equilibrium for payoffs `a` to the rammer:
/// the rammer's strategy, the target's, the value. Uniform play where it
/// is one (always, for a head-on ram, whose ram cells are equal: the
/// seed's die "1-2 Swerve Left, 3-4 Straight On, 5-6 Swerve Right"), else
/// the kernel's [`solve_zero_sum`].
pub fn head_on_equilibrium(a: [[f64; 3]; 3]) -> ([f64; 3], [f64; 3], f64) {
    let a = a.map(Vec::from).to_vec();
    let third = [1.0 / 3.0; 3];
    let (guaranteed, conceded) = guarantees(&a, &third, &third);
    if (guaranteed - conceded).abs() < 1e-12 {
        return (third, third, guaranteed);
    }
    let e = solve_zero_sum(&a);
    let three = |p: Vec<f64>| -> [f64; 3] { p.try_into().expect("three directions") };
    (three(e.rows), three(e.cols), e.value)
}

/// One ramming action, collision or crash.
#[derive(Clone, Debug)]
pub struct Ram {
    /// What hits what.
    pub impact: Impact,
    /// The vehicle ramming (for collisions, the one moving; for crashes,
    /// the one crashing).
    pub rammer: Vehicle,
    /// The vehicle rammed (unused by crashes).
    pub target: Vehicle,
    /// The target driver's Leadership, when it may Swerve.
    pub swerve_leadership: Option<u8>,
    /// Roll the 4+ "did they collide" first.
    pub uncertain: bool,
    /// Head-on strategies: the rammer's and the target's.
    pub strategies: (Mixed, Mixed),
    /// The rake's reading.
    pub rake: LargeRake,
}

/// Every metric of the ram scenario, `{k}` a side (`rammer`, `target`)
/// and more.
pub const RAM_METRICS: [MetricDecl; 10] = [
    MetricDecl::probability(
        "p_impact",
        "P(they hit)",
        "P(the impact happens: not clipped clear, not swerved, the head-on choices meet)",
    ),
    MetricDecl::mean(
        "mean_{k}_damage",
        "mean damage to the {k}",
        "expected points of Damage (each auto-penetrating before the vehicle's save)",
    ),
    MetricDecl::probability(
        "p_{k}_damaged",
        "P({k} damaged)",
        "P(at least one point of Damage after the vehicle's save)",
    ),
    MetricDecl::probability(
        "p_{k}_immobilised",
        "P({k} immobilised)",
        "P(the 4+ Immobilisation roll of a head-on ram, front collision or front crash)",
    ),
    MetricDecl::mean(
        "mean_{k}_hits",
        "mean hits on the {k}",
        "expected damage points reaching this side and location after the save",
    ),
    MetricDecl::probability(
        "p_{k}_hit",
        "P({k} hit)",
        "P(this side and location takes at least one point after the save)",
    ),
    MetricDecl::probability(
        "p_{k}_effect",
        "P({k})",
        "P(this side's Damage Tables give this result at least once)",
    ),
    MetricDecl::probability(
        "p_choice_{k}",
        "P({k})",
        "P(this driver picks this direction in a head-on ram)",
    ),
    MetricDecl::probability(
        "rammer_damage={k}",
        "P(rammer takes {k} damage)",
        "P(the rammer takes exactly k points of Damage), k = 0..6",
    ),
    MetricDecl::probability(
        "target_damage={k}",
        "P(target takes {k} damage)",
        "P(the target takes exactly k points of Damage), k = 0..6",
    ),
];

/// Handles of one side's metrics.
struct SideHandles {
    mean: Metric,
    /// `points[k]`: exactly k points of Damage.
    points: Vec<Metric>,
    damaged: Metric,
    immobilised: Metric,
    locations: Vec<(Metric, Metric)>,
    effects: Vec<Metric>,
}

/// The ram's model.
pub struct RamModel {
    ram: Ram,
    list: MetricList,
    impact: Metric,
    sides: Vec<SideHandles>,
    choices: Option<[[Metric; 3]; 2]>,
    /// The head-on strategies laid out for drawing: the rammer's, the
    /// target's.
    draws: [Mix; 2],
    /// The face tables, laid out the first time the sampler is asked.
    tables: std::sync::OnceLock<Option<RamTables>>,
}

/// One side's outcome in a trial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct SideOutcome {
    points: u8,
    hits: [u8; 6],
    effects: u16,
    immobilised: bool,
}

/// A trial: whether they hit, the head-on choices, each side's outcome.
type Trial = (bool, [usize; 2], [SideOutcome; 2]);

/// A trial's impact: whether they hit, the head-on choices.
type Impacted = (bool, [usize; 2]);

/// The sampler of a ram whose impact's dice and damage's dice each fit a
/// face table: a draw of the impact's faces a trial, a draw of the
/// damage's faces a trial that hits.
pub const FACES: Sampler = Sampler::Custom("impact and damage face tables");

/// The face tables of a ram's dice: the impact's, the damage's (both
/// sides), and each damage ending's outcome on each side.
struct RamTables {
    impact: FaceTable<Impacted>,
    damage: FaceTable<[SideOutcome; 2]>,
    /// Per ending of `damage`: its outcome's index in `sides`, per side.
    side_ids: Vec<[u32; 2]>,
    /// Each side's distinct outcomes, no damage first.
    sides: [Vec<SideOutcome>; 2],
}

impl Ram {
    /// The sides that can take damage: the rammer, and the target unless
    /// this is a crash.
    fn sides(&self) -> Vec<(&'static str, &Vehicle)> {
        let mut s = vec![("rammer", &self.rammer)];
        if !self.impact.is_crash() {
            s.push(("target", &self.target));
        }
        s
    }

    /// What each side suffers.
    fn suffers(&self) -> (Suffers, Suffers) {
        damage(self.impact, self.rammer.size, self.target.size, self.rake)
    }

    /// P(the impact happens).
    fn p_impact(&self) -> f64 {
        let contact = if self.uncertain { 0.5 } else { 1.0 };
        let avoided = match (self.impact.swerve_test(), self.swerve_leadership) {
            (true, Some(ld)) => p_leadership(ld),
            _ => 0.0,
        };
        let meets = if self.impact == Impact::HeadOn {
            let (a, b) = (
                self.strategies.0.probabilities(),
                self.strategies.1.probabilities(),
            );
            (0..3)
                .flat_map(|i| (0..3).map(move |j| (i, j)))
                .filter(|&(i, j)| head_on_meets(i, j))
                .map(|(i, j)| a[i] * b[j])
                .sum()
        } else {
            1.0
        };
        contact * (1.0 - avoided) * meets
    }

    /// The head-on payoff matrix to the rammer: the damage margin when the
    /// choices meet, nothing when they pass.
    pub fn head_on_payoffs(&self) -> [[f64; 3]; 3] {
        let ((r, _), (t, _)) = damage(
            Impact::HeadOn,
            self.rammer.size,
            self.target.size,
            self.rake,
        );
        let margin = t.law().mean() - r.law().mean();
        let mut a = [[0.0; 3]; 3];
        for (i, row) in a.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                if head_on_meets(i, j) {
                    *x = margin;
                }
            }
        }
        a
    }

    /// The model.
    pub fn into_model(self) -> RamModel {
        let mut list = MetricList::new();
        let d = &RAM_METRICS;
        let impact = list.add(&d[0]);
        let sides = self
            .sides()
            .into_iter()
            .map(|(who, v)| SideHandles {
                mean: list.add_k_worded(&d[1], who, who),
                points: list.family(&d[if who == "rammer" { 8 } else { 9 }], 0..=6),
                damaged: list.add_k_worded(&d[2], who, who),
                immobilised: list.add_k_worded(&d[3], who, who),
                locations: v
                    .locations
                    .iter()
                    .map(|l| {
                        let id = format!("{who}_{}", l.name);
                        let words = format!("{who}'s {}", l.name.replace('_', " "));
                        (
                            list.add_k_worded(&d[4], &id, &words),
                            list.add_k_worded(&d[5], &id, &words),
                        )
                    })
                    .collect(),
                effects: v
                    .effects
                    .iter()
                    .map(|e| {
                        let id = format!("{who}_{e}");
                        let words = format!("{who}: at least one '{}'", e.replace('_', " "));
                        list.add_k_worded(&d[6], &id, &words)
                    })
                    .collect(),
            })
            .collect();
        let choices = (self.impact == Impact::HeadOn).then(|| {
            ["rammer", "target"].map(|who| {
                DIRECTIONS.map(|dir| {
                    list.add_k_worded(&d[7], format!("{who}_{dir}"), &format!("{who} goes {dir}"))
                })
            })
        });
        let draws = [self.strategies.0, self.strategies.1].map(|m| Mix::of_weights(&m.0));
        RamModel {
            ram: self,
            list,
            impact,
            sides,
            choices,
            draws,
            tables: std::sync::OnceLock::new(),
        }
    }
}

/// P(a Leadership Test passes), from the rule's own test enumerated.
pub fn p_leadership(ld: u8) -> f64 {
    crate::dice::enumerate(64, |r| leadership_test(r, u32::from(ld)))
        .expect("two dice")
        .into_iter()
        .filter(|(pass, _)| *pass)
        .map(|(_, p)| p)
        .sum()
}

impl RamModel {
    /// The ram.
    pub fn ram(&self) -> &Ram {
        &self.ram
    }

    fn trial(&self, dice: &mut impl Roller) -> Trial {
        let (hit, choice) = self.impact(dice);
        let out = if hit {
            self.damage(dice)
        } else {
            [SideOutcome::default(); 2]
        };
        (hit, choice, out)
    }

    /// The first part of a trial: the head-on choices, the "did they
    /// collide" roll and the Swerve test; whether they hit.
    fn impact(&self, dice: &mut impl Roller) -> Impacted {
        let r = &self.ram;
        let mut choice = [1, 1];
        if r.impact == Impact::HeadOn {
            choice = [self.draws[0].draw(dice), self.draws[1].draw(dice)];
        }
        let contact = !r.uncertain || dice.d6() >= 4;
        let swerved = contact
            && r.impact.swerve_test()
            && r.swerve_leadership
                .is_some_and(|ld| leadership_test(dice, u32::from(ld)));
        let hit = contact
            && !swerved
            && (r.impact != Impact::HeadOn || head_on_meets(choice[0], choice[1]));
        (hit, choice)
    }

    /// The rest of a trial that hits: each side's points of Damage, each
    /// point through the vehicle's Steps, the Immobilisation roll.
    fn damage(&self, dice: &mut impl Roller) -> [SideOutcome; 2] {
        let r = &self.ram;
        let mut out = [SideOutcome::default(); 2];
        let (a, b) = r.suffers();
        let sides = if r.impact.is_crash() { 1 } else { 2 };
        let vehicles = [&r.rammer, &r.target];
        for (k, (points, immob)) in [a, b].into_iter().enumerate().take(sides) {
            let (o, v) = (&mut out[k], vehicles[k]);
            o.points = points.roll(dice) as u8;
            for _ in 0..o.points {
                let s = v.take_point(dice, Penetration::Automatic);
                if s.penetrating {
                    o.hits[s.location] += 1;
                }
                if let Some(e) = s.effect {
                    o.effects |= 1 << e;
                }
            }
            o.immobilised = immob && dice.d6() >= 4;
        }
        out
    }

    /// The face tables of the impact's dice and of the damage's dice,
    /// where both fit ([`FaceTable::build`]).
    fn tables(&self) -> Option<&RamTables> {
        self.tables
            .get_or_init(|| {
                let impact = FaceTable::build(|d| self.impact(d))?;
                let damage = FaceTable::build(|d| self.damage(d))?;
                let mut sides: [Vec<SideOutcome>; 2] = Default::default();
                let mut id = |k: usize, o: SideOutcome| {
                    let at = sides[k].iter().position(|x| *x == o).unwrap_or_else(|| {
                        sides[k].push(o);
                        sides[k].len() - 1
                    });
                    at as u32
                };
                // the ending of a trial that misses: no damage on either side
                id(0, SideOutcome::default());
                id(1, SideOutcome::default());
                let side_ids = damage
                    .ends()
                    .iter()
                    .map(|[a, b]| [id(0, *a), id(1, *b)])
                    .collect();
                Some(RamTables {
                    impact,
                    damage,
                    side_ids,
                    sides,
                })
            })
            .as_ref()
    }

    /// The face-table sampler: the chunk's impacts drawn from the impact's
    /// table, then as many damage rolls as trials hit from the damage's
    /// table (every metric is a sum over trials of one side's outcome or
    /// of the impact, so a trial's damage need not be paired with its
    /// impact); combinations past a table replay their faces on real dice.
    fn run_faces(&self, t: &RamTables, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut past_impacts: std::collections::BTreeMap<Impacted, u64> = Default::default();
        let impacts = t.impact.count(
            roller,
            trials,
            |d| self.impact(d),
            |e| *past_impacts.entry(e).or_insert(0) += 1,
        );
        let mut impacted: Vec<(Impacted, u64)> =
            t.impact.ends().iter().copied().zip(impacts).collect();
        impacted.extend(past_impacts);
        let hits: u64 = impacted.iter().filter(|(e, _)| e.0).map(|(_, n)| n).sum();
        let mut past_sides: [std::collections::BTreeMap<SideOutcome, u64>; 2] = Default::default();
        let damages = t.damage.count(
            roller,
            hits,
            |d| self.damage(d),
            |[a, b]| {
                *past_sides[0].entry(a).or_insert(0) += 1;
                *past_sides[1].entry(b).or_insert(0) += 1;
            },
        );
        let mut side_counts = [vec![0u64; t.sides[0].len()], vec![0u64; t.sides[1].len()]];
        // the trials that miss take no damage (the first ending of each side)
        side_counts[0][0] = trials - hits;
        side_counts[1][0] = trials - hits;
        for (ids, n) in t.side_ids.iter().zip(damages) {
            side_counts[0][ids[0] as usize] += n;
            side_counts[1][ids[1] as usize] += n;
        }
        for (e, count) in impacted {
            if count > 0 {
                self.record_impact(&e, &mut Times { tally, count });
            }
        }
        for (k, (h, (counts, past))) in self
            .sides
            .iter()
            .zip(side_counts.iter().zip(&past_sides))
            .enumerate()
        {
            let counted = t.sides[k].iter().zip(counts.iter().copied());
            for (o, count) in counted.chain(past.iter().map(|(o, n)| (o, *n))) {
                if count > 0 {
                    Self::record_side(h, o, &mut Times { tally, count });
                }
            }
        }
        tally.add_trials(trials);
    }

    fn record(&self, t: &Trial, sink: &mut impl MetricSink) {
        let (hit, choice, out) = t;
        self.record_impact(&(*hit, *choice), sink);
        for (h, o) in self.sides.iter().zip(out) {
            Self::record_side(h, o, sink);
        }
    }

    /// The metrics of the impact: whether they hit, the head-on choices.
    fn record_impact(&self, (hit, choice): &Impacted, sink: &mut impl MetricSink) {
        sink.record(self.impact, u64::from(*hit));
        if let Some(c) = &self.choices {
            for side in 0..2 {
                sink.record(c[side][choice[side]], 1);
            }
        }
    }

    /// The metrics of one side's outcome.
    fn record_side(h: &SideHandles, o: &SideOutcome, sink: &mut impl MetricSink) {
        sink.record(h.mean, u64::from(o.points));
        sink.record(h.points[usize::from(o.points).min(6)], 1);
        sink.record(h.damaged, u64::from(o.hits.iter().any(|&x| x > 0)));
        sink.record(h.immobilised, u64::from(o.immobilised));
        for (j, &(mean, any)) in h.locations.iter().enumerate() {
            sink.record(mean, u64::from(o.hits[j]));
            sink.record(any, u64::from(o.hits[j] > 0));
        }
        for (e, &m) in h.effects.iter().enumerate() {
            sink.record(m, u64::from(o.effects & (1 << e) != 0));
        }
    }
}

/// A trial as one number: whether they hit, the two choices (2 bits each),
/// then per side its points, six locations' hits (4 bits each), effects (16
/// bits) and immobilised; `None` where a count passes 15.
fn pack(t: &Trial) -> Option<u128> {
    let (hit, choice, sides) = t;
    let mut k = u128::from(*hit) | (choice[0] as u128) << 1 | (choice[1] as u128) << 3;
    let mut at = 5;
    for o in sides {
        if o.points > 15 || o.hits.iter().any(|&h| h > 15) || choice.iter().any(|&c| c > 3) {
            return None;
        }
        let mut side = u128::from(o.points);
        for (j, &h) in o.hits.iter().enumerate() {
            side |= u128::from(h) << (4 + 4 * j);
        }
        side |= u128::from(o.effects) << 28 | u128::from(o.immobilised) << 44;
        k |= side << at;
        at += 45;
    }
    Some(k)
}

/// The trial [`pack`] made `k` of.
fn unpack(k: u128) -> Trial {
    let hit = k & 1 == 1;
    let choice = [(k >> 1 & 3) as usize, (k >> 3 & 3) as usize];
    let side = |side: u128| SideOutcome {
        points: (side & 15) as u8,
        hits: std::array::from_fn(|j| (side >> (4 + 4 * j) & 15) as u8),
        effects: (side >> 28) as u16,
        immobilised: side >> 44 & 1 == 1,
    };
    let mask = (1u128 << 45) - 1;
    (hit, choice, [side(k >> 5 & mask), side(k >> 50 & mask)])
}

impl Model for RamModel {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    /// Trials are counted by outcome and each outcome recorded once; an
    /// outcome is hashed as one packed number where its counts fit.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        if let Some(t) = self.tables() {
            return self.run_faces(t, roller, trials, tally);
        }
        let mut packed: foldhash::HashMap<u128, u64> = Default::default();
        let mut seen: foldhash::HashMap<Trial, u64> = Default::default();
        for _ in 0..trials {
            let t = self.trial(roller);
            match pack(&t) {
                Some(k) => *packed.entry(k).or_insert(0) += 1,
                None => *seen.entry(t).or_insert(0) += 1,
            }
        }
        seen.extend(packed.into_iter().map(|(k, n)| (unpack(k), n)));
        let mut outcomes: Vec<(Trial, u64)> = seen.into_iter().collect();
        outcomes.sort_unstable();
        for (t, count) in outcomes {
            self.record(&t, &mut Times { tally, count });
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        if self.tables().is_some() {
            return FACES;
        }
        Sampler::CountedDice
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let r = &self.ram;
        let mut out = vec![0.0; self.list.len()];
        let hit = r.p_impact();
        out[self.impact.index()] = hit;
        let (a, b) = r.suffers();
        for (h, ((_, v), (points, immob))) in
            self.sides.iter().zip(r.sides().into_iter().zip([a, b]))
        {
            let law = points.law();
            let q = (1.0 - v.p_saved()) / 6.0;
            let power = |x: f64| -> f64 { law.iter().map(|(t, p)| p * x.powi(t as i32)).sum() };
            out[h.mean.index()] = hit * law.mean();
            for (k, &m) in h.points.iter().enumerate() {
                out[m.index()] = hit * law.pmf(k as i64) + if k == 0 { 1.0 - hit } else { 0.0 };
            }
            out[h.damaged.index()] = hit * (1.0 - power(1.0 - 6.0 * q));
            out[h.immobilised.index()] = if immob { hit * 0.5 } else { 0.0 };
            for &(mean, any) in &h.locations {
                out[mean.index()] = hit * law.mean() * q;
                out[any.index()] = hit * (1.0 - power(1.0 - q));
            }
            for (e, &m) in h.effects.iter().enumerate() {
                let re: f64 = (0..6)
                    .map(|j| q * v.p_effect_given_penetrating(j, e as u8))
                    .sum();
                out[m.index()] = hit * (1.0 - power(1.0 - re));
            }
        }
        if let Some(c) = &self.choices {
            let p = [
                r.strategies.0.probabilities(),
                r.strategies.1.probabilities(),
            ];
            for side in 0..2 {
                for dir in 0..3 {
                    out[c[side][dir].index()] = p[side][dir];
                }
            }
        }
        Some(out)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let t = self.trial(roller);
        self.record(&t, &mut TrialValues(values));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_trial_packs_and_unpacks_to_itself() {
        let side = |points: u8, effects: u16, immobilised: bool| super::SideOutcome {
            points,
            hits: [points, 0, 15, 1, 2, 3],
            effects,
            immobilised,
        };
        let t: super::Trial = (
            true,
            [2, 1],
            [side(15, 0xffff, true), side(3, 0x8001, false)],
        );
        assert_eq!(super::unpack(super::pack(&t).unwrap()), t);
        let too_many = (true, [0, 0], [side(16, 0, false), side(0, 0, false)]);
        assert!(super::pack(&too_many).is_none());
    }

    use super::*;
    use crate::dice::testing::assert_exact_is_every_roll;
    use crate::experiment::significance::{binomial_exact_p, mean_p};
    use crate::systems::gce::vehicles::damage::test_trukk;
    use Points::*;
    use Size::*;

    fn vehicle(size: Size) -> Vehicle {
        test_trukk(size, "wheels")
    }

    /// Every small/large case the seed lists, as (rammer, target).
    #[test]
    fn every_size_case_deals_what_the_seed_says() {
        let v = LargeRake::VersusSmall;
        let cases = [
            (Impact::Rake, Large, Large, ((D3, false), (D3, false))),
            (Impact::Rake, Small, Large, ((D3, false), (D3Less1, false))),
            (
                Impact::Sideswipe,
                Small,
                Large,
                ((OneOn4, false), (None, false)),
            ),
            (
                Impact::Sideswipe,
                Small,
                Small,
                ((OneOn4, false), (OneOn4, false)),
            ),
            (Impact::Shunt, Large, Large, ((None, false), (One, false))),
            (Impact::Shunt, Small, Large, ((None, false), (None, false))),
            (Impact::Shunt, Small, Small, ((None, false), (One, false))),
            (Impact::Shunt, Large, Small, ((None, false), (D3, false))),
            (Impact::TBone, Large, Large, ((One, false), (D3, false))),
            (Impact::TBone, Small, Large, ((One, false), (None, false))),
            (Impact::TBone, Large, Small, ((None, false), (D3, false))),
            (Impact::TBone, Small, Small, ((One, false), (D3, false))),
            (Impact::HeadOn, Large, Large, ((D6, true), (D6, true))),
            (Impact::HeadOn, Large, Small, ((One, false), (D6, true))),
            (Impact::HeadOn, Small, Large, ((D6, true), (One, false))),
            (
                Impact::CollisionFront,
                Large,
                Small,
                ((One, false), (D6, true)),
            ),
            (
                Impact::CollisionSide,
                Large,
                Large,
                ((One, false), (One, false)),
            ),
            (
                Impact::CollisionSide,
                Large,
                Small,
                ((One, false), (D3, false)),
            ),
            (
                Impact::CollisionOther,
                Large,
                Small,
                ((None, false), (One, false)),
            ),
            (
                Impact::CollisionOther,
                Small,
                Small,
                ((One, false), (One, false)),
            ),
            (
                Impact::CrashFront,
                Large,
                Large,
                ((D3, true), (None, false)),
            ),
            (
                Impact::CrashSide,
                Small,
                Large,
                ((OneOn4, false), (None, false)),
            ),
        ];
        for (impact, r, t, want) in cases {
            assert_eq!(damage(impact, r, t, v), want, "{impact:?} {r:?} -> {t:?}");
        }
        // the other reading of the rake: every large vehicle takes D3 - 1
        assert_eq!(
            damage(Impact::Rake, Large, Large, LargeRake::Always),
            ((D3Less1, false), (D3Less1, false))
        );
    }

    /// The head-on games (a Trukk and a bike either way, two Trukks) and
    /// one where uniform play is no equilibrium (rock-paper-scissors with
    /// one payoff doubled, solved by the kernel): the reported strategies
    /// certify the value, the rammer's guaranteeing it against every
    /// choice of the target and the target's conceding no more.
    #[test]
    fn head_on_equilibria_certify_their_value() {
        let ram = |r, t| Ram {
            impact: Impact::HeadOn,
            rammer: vehicle(r),
            target: vehicle(t),
            swerve_leadership: Option::None,
            uncertain: false,
            strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
            rake: LargeRake::VersusSmall,
        };
        let games = [
            ram(Large, Small).head_on_payoffs(),
            ram(Small, Large).head_on_payoffs(),
            ram(Large, Large).head_on_payoffs(),
            [[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]],
        ];
        for a in games {
            let (x, y, v) = head_on_equilibrium(a);
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((y.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let (floor, ceil) = guarantees(&a.map(Vec::from), &x, &y);
            assert!((floor - v).abs() < 1e-9, "{a:?}");
            assert!((ceil - v).abs() < 1e-9, "{a:?}");
        }
    }

    /// Between equal vehicles the margin is nil: every pair of strategies
    /// is an equilibrium, and uniform is the one reported.
    #[test]
    fn equal_vehicles_play_uniform() {
        let (x, y, v) = head_on_equilibrium([[0.0; 3]; 3]);
        assert_eq!((x, y, v), ([1.0 / 3.0; 3], [1.0 / 3.0; 3], 0.0));
        let (x, _, _) = head_on_equilibrium([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]);
        assert!((x[0] - 1.0 / 3.0).abs() > 0.01, "not uniform: {x:?}");
    }

    /// A Trukk ramming a bike head-on stands to deal 3.5 and take 1: the
    /// game is "match or avoid" on three directions, whose only
    /// equilibrium is uniform, worth a third of the margin.
    #[test]
    fn the_head_on_game_is_uniform_with_a_third_of_the_margin() {
        let ram = Ram {
            impact: Impact::HeadOn,
            rammer: vehicle(Large),
            target: vehicle(Small),
            swerve_leadership: Option::None,
            uncertain: false,
            strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
            rake: LargeRake::VersusSmall,
        };
        let (x, y, v) = head_on_equilibrium(ram.head_on_payoffs());
        for p in x.iter().chain(&y) {
            assert!((p - 1.0 / 3.0).abs() < 1e-9, "{x:?} {y:?}");
        }
        assert!((v - 2.5 / 3.0).abs() < 1e-9);
        assert_eq!(Mixed::from_probabilities(x), Mixed::UNIFORM);
        let model = ram.into_model();
        let exact = model.exact().unwrap();
        assert!(
            (exact[0] - 1.0 / 3.0).abs() < 1e-15,
            "P(impact) {}",
            exact[0]
        );
    }

    /// Exact vs every roll enumerated: a T-bone on a small vehicle with a
    /// save and a Damage Table; sideswiping bikes with a Swerve test; a
    /// side crash that may not have happened.
    #[test]
    fn exact_agrees_with_enumerating_every_roll() {
        let mut bike = vehicle(Small);
        bike.save = Some(5);
        bike.effects = vec!["none".into(), "wrecked".into()];
        bike.tables[3] = Some([0, 0, 0, 0, 1, 1]);
        let cases = [
            (
                Impact::TBone,
                vehicle(Large),
                bike.clone(),
                Option::None,
                false,
            ),
            (
                Impact::Sideswipe,
                vehicle(Small),
                vehicle(Small),
                Some(7),
                false,
            ),
            (
                Impact::CrashSide,
                bike.clone(),
                vehicle(Large),
                Option::None,
                true,
            ),
        ];
        for (impact, rammer, target, swerve_leadership, uncertain) in cases {
            let model = Ram {
                impact,
                rammer,
                target,
                swerve_leadership,
                uncertain,
                strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
                rake: LargeRake::VersusSmall,
            }
            .into_model();
            let exact = model.exact().unwrap();
            let names: Vec<String> = model.metrics().iter().map(|m| m.name.clone()).collect();
            assert_exact_is_every_roll(&names, &exact, 1 << 22, |r, values| {
                let t = model.trial(r);
                model.record(&t, &mut TrialValues(values));
            });
        }
    }

    /// The face-table sampler against values by hand, at fixed seeds:
    /// exact binomial tests and a z-test of a mean, Bonferroni over every
    /// check at a family-wise 1e-6.
    ///
    /// A Trukk T-bones another whose driver has Leadership 7: it Swerves
    /// clear on 2D6 <= 7 (21 of 36), so they hit with 15/36 = 5/12; then
    /// the rammer takes 1 point and the target D3 ("takes 1 point of Damage
    /// and inflicts D3"), every point on a D6 location, no save. P(target
    /// takes 3) = 5/12 * 1/3 = 5/36; mean target damage 5/12 * 2 = 5/6;
    /// P(the target's engines hit) = 5/12 (1 - (5/6 + 25/36 + 125/216) / 3)
    /// = 5/12 * 193/648 = 965/7776.
    ///
    /// A bike (save 5+, location 4's Damage Table "none" on 1-4, "wrecked"
    /// on 5-6) side-crashes, unsure whether it did (4+: 1/2): a point on a
    /// 4+ (1/2), through the save on 1-4 (2/3): P(damaged) = 1/2 * 1/2 *
    /// 2/3 = 1/6; P(wheels hit) = 1/6 * 1/6 = 1/36; P(wrecked) = 1/36 *
    /// 1/3 = 1/108, P("none") = 1/36 * 2/3 = 1/54; P(no crash) = 1/2.
    #[test]
    fn the_face_tables_give_the_laws_by_hand() {
        let tbone = Ram {
            impact: Impact::TBone,
            rammer: vehicle(Large),
            target: vehicle(Large),
            swerve_leadership: Some(7),
            uncertain: false,
            strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
            rake: LargeRake::VersusSmall,
        };
        let mut bike = vehicle(Small);
        bike.save = Some(5);
        bike.effects = vec!["none".into(), "wrecked".into()];
        bike.tables[3] = Some([0, 0, 0, 0, 1, 1]);
        let crash = Ram {
            impact: Impact::CrashSide,
            rammer: bike,
            target: vehicle(Large),
            swerve_leadership: Option::None,
            uncertain: true,
            strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
            rake: LargeRake::VersusSmall,
        };
        let cases: [(Ram, &[(&str, f64)]); 2] = [
            (
                tbone,
                &[
                    ("p_impact", 5.0 / 12.0),
                    ("rammer_damage=1", 5.0 / 12.0),
                    ("p_rammer_damaged", 5.0 / 12.0),
                    ("target_damage=0", 7.0 / 12.0),
                    ("target_damage=3", 5.0 / 36.0),
                    ("p_target_engines_hit", 965.0 / 7776.0),
                ],
            ),
            (
                crash,
                &[
                    ("p_impact", 0.5),
                    ("rammer_damage=1", 0.25),
                    ("p_rammer_damaged", 1.0 / 6.0),
                    ("p_rammer_wheels_hit", 1.0 / 36.0),
                    ("p_rammer_wrecked_effect", 1.0 / 108.0),
                    ("p_rammer_none_effect", 1.0 / 54.0),
                ],
            ),
        ];
        let checks = 13.0;
        let alpha = 1e-6 / checks;
        let n = 5 * 65_536u64;
        for (k, (ram, want)) in cases.into_iter().enumerate() {
            let model = ram.into_model();
            assert_eq!(model.sampler(), FACES, "the damage's dice fit a table");
            let names: Vec<&str> = model.metrics().iter().map(|m| m.name.as_str()).collect();
            let at = |name: &str| {
                names
                    .iter()
                    .position(|m| *m == name)
                    .unwrap_or_else(|| panic!("{name} among {names:?}"))
            };
            let mut tally = Tally::new(names.len());
            for chunk in 0..5 {
                let mut r = BatchedRoller::new(23, &[k as u64, chunk]);
                model.run_chunk(&mut r, 65_536, &mut tally);
            }
            assert_eq!(tally.trials(), n);
            for &(name, p) in want {
                let got = tally.sum(at(name));
                let pv = binomial_exact_p(got, n, p);
                assert!(pv > alpha, "{name}: {got} of {n} against {p}: p = {pv:e}");
            }
            if k == 0 {
                let i = at("mean_target_damage");
                let mean = tally.sum(i) as f64 / n as f64;
                let var = tally.sum_sq(i) as f64 / n as f64 - mean * mean;
                let pv = mean_p(mean, var, n, 5.0 / 6.0, 0.0);
                assert!(pv > alpha, "mean target damage {mean}: p = {pv:e}");
            }
        }
    }

    /// A head-on ram deals D6 to each side: 6^7 faces a side, past a
    /// table, so its trials count real dice.
    #[test]
    fn damage_past_a_table_counts_real_dice() {
        let model = Ram {
            impact: Impact::HeadOn,
            rammer: vehicle(Large),
            target: vehicle(Large),
            swerve_leadership: Option::None,
            uncertain: false,
            strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
            rake: LargeRake::VersusSmall,
        }
        .into_model();
        assert_eq!(model.sampler(), Sampler::CountedDice);
    }

    /// Mixed strategies: the rammer 1:2:1, the target 2:1:1 meet with
    /// 1/4 1/4 + 2/4 1/4 + 1/4 2/4 = 5/16.
    #[test]
    fn fixed_mixed_strategies_meet_as_often_as_they_should() {
        let model = Ram {
            impact: Impact::HeadOn,
            rammer: vehicle(Large),
            target: vehicle(Large),
            swerve_leadership: Some(12),
            uncertain: false,
            strategies: (Mixed([1, 2, 1]), Mixed([2, 1, 1])),
            rake: LargeRake::VersusSmall,
        }
        .into_model();
        let exact = model.exact().unwrap();
        let at = |name: &str| exact[model.metrics().iter().position(|m| m.name == name).unwrap()];
        assert!(
            (at("p_impact") - 5.0 / 16.0).abs() < 1e-15,
            "no Leadership Test head-on"
        );
        assert!((at("p_choice_rammer_straight") - 0.5).abs() < 1e-15);
        assert!((at("p_choice_target_left") - 0.5).abs() < 1e-15);
        assert!((at("p_rammer_immobilised") - 5.0 / 32.0).abs() < 1e-15);
        assert!((at("mean_target_damage") - 3.5 * 5.0 / 16.0).abs() < 1e-15);
    }
}

//! One firer's turn of fire at one target: the missile's lock-on first,
//! one D20 per firing (its 1 and 20), the effect of each hit, and the
//! others under a blast or template, each rolling its own D20 against the
//! second value, or (variant `blast_roll = "once"`) read off the firing's
//! one D20.
//!
//! The `shooting` scenario is here too, beside the rule it builds: its
//! parameters (the shot it shares with `squad_under_fire` is in
//! `shared_params`), builder, test points and refusals.

use super::chart::{ApCost, Armour, Effect, OnTwenty};
use super::fire::{Figure, Firer, Roll, Toughness, effect_law, read_d20, roll_effect};
use super::shared_params::{EFFECT, ShotParams, TargetParams, ToughnessParams};
use super::vehicle::{VehicleDamage, VehicleState, no_minor_gun};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::Mechanic;
use crate::systems::Variant;
use crate::systems::{Given, MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `shooting` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SHOOTING_SCENARIO: Scenario = Scenario {
    name: "shooting",
    about: "one firer's turn of fire at a target: lock-on, to hit and penetrate, jams, effect of hit, others under the blast",
    seed_section: "RANGED COMBAT WEAPONS FACTOR CHART; RANGED TO HIT MODIFIERS; EFFECT OF HIT CHART; ACTION POINTS; WEAPONS FACTOR CHART (explanation)",
    params: ShootingParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &["no_minor_gun", "blast_roll"],
    test_points: &[
        &[("weapon", "bolt_rifle"), ("armour", "std"), ("range", "12")],
        &[
            ("weapon", "missile_launcher"),
            ("armour", "power"),
            ("range", "20"),
            ("target_ignores_duck_backs", "true"),
            ("others_under_template", "2"),
            ("others_partly_under", "2"),
        ],
        &[
            ("weapon", "flame_thrower"),
            ("armour", "std"),
            ("range", "6"),
            ("target_kind", "hero"),
            ("target_enhanced_nervous_system", "true"),
            ("others_under_template", "1"),
            ("others_partly_under", "2"),
            ("moved_d6", "1"),
            ("firer_ap", "4"),
        ],
        &[
            ("weapon", "heavy_bolter"),
            ("armour", "storm"),
            ("range", "10"),
            ("target_kind", "hero"),
            ("target_scarab_swarm", "true"),
            ("target_ignores_duck_backs", "true"),
        ],
        &[
            ("weapon", "laser_machine_pistol"),
            ("armour", "std"),
            ("range", "4"),
            ("assaulted_before_turn", "true"),
            ("target_cover", "moving"),
        ],
        &[
            ("weapon", "plasma_pistol"),
            ("armour", "tank"),
            ("range", "6"),
            ("target_size", "tank"),
            ("target_vehicle", "true"),
            ("firer_wounded", "true"),
            ("marksman", "true"),
        ],
        // a Veteran Hero's tripod heavy bolter, moved and set up: 4 - 1 - 1
        // leaves 2 AP to fire, none to clear a jam
        &[
            ("weapon", "heavy_bolter"),
            ("armour", "std"),
            ("range", "12"),
            ("weapon_tripod", "true"),
            ("firer_ap", "4"),
            ("moved_d6", "1"),
        ],
        // Ambidextrous: two plasma pistols, each AP both, a 20 breaks one
        &[
            ("weapon", "plasma_pistol"),
            ("armour", "power"),
            ("range", "6"),
            ("ambidextrous", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an X value with a modifier",
            point: 0,
            set: &[
                ("weapon", "custom"),
                ("weapon_row", "24 | 8 | 6 | 4 | X+2 | 1 | jam"),
            ],
            unset: &[],
            field: "weapon_row",
            words: &["X means no chance"],
        },
        Refusal {
            what: "a weapon row with three armour values",
            point: 0,
            set: &[
                ("weapon", "custom"),
                ("weapon_row", "24 | 8 | 6 | 4 | 1/2 | jam"),
            ],
            unset: &[],
            field: "weapon_row",
            words: &["3 armour values"],
        },
        Refusal {
            what: "a bad AP cost",
            point: 0,
            set: &[("weapon_row", "24 | 8 | 6 | 4 | 1 | 3 | jam")],
            unset: &["weapon"],
            field: "weapon_row",
            words: &["must be 1, 2 or 1/2"],
        },
        Refusal {
            what: "beyond the weapon's range",
            point: 0,
            set: &[("range", "30")],
            unset: &[],
            field: "range",
            words: &["maximum range of 24"],
        },
        Refusal {
            what: "others under a weapon with no area",
            point: 0,
            set: &[("others_under_template", "2")],
            unset: &[],
            field: "others_under_template",
            words: &["covers no area"],
        },
        Refusal {
            what: "vehicle guns on a target that is not a vehicle",
            point: 0,
            set: &[("target_minor_guns", "2")],
            unset: &[],
            field: "target_minor_guns",
            words: &["target_vehicle"],
        },
        Refusal {
            what: "a heavy weapon firing at assaulters before its turn",
            point: 0,
            set: &[
                ("weapon", "heavy_bolter"),
                ("assaulted_before_turn", "true"),
            ],
            unset: &[],
            field: "assaulted_before_turn",
            words: &["Heavy weapons"],
        },
        Refusal {
            what: "a tripod weapon that is not heavy",
            point: 0,
            set: &[("weapon_tripod", "true")],
            unset: &[],
            field: "weapon_tripod",
            words: &["Wheeled/tripod heavy weapons", "heavy weapon"],
        },
        Refusal {
            what: "a tripod moved and set up with no AP left to fire",
            point: 6,
            set: &[("firer_ap", "3")],
            unset: &[],
            field: "firing_ap",
            words: &["no AP left to fire", "setting up the tripod"],
        },
        Refusal {
            what: "Ambidextrous with a rifle",
            point: 0,
            set: &[("ambidextrous", "true")],
            unset: &[],
            field: "ambidextrous",
            words: &["two hand guns", "not a hand gun"],
        },
        Refusal {
            what: "an unknown armour class",
            point: 0,
            set: &[("armour", "plate")],
            unset: &[],
            field: "armour",
            words: &["'plate'"],
        },
    ],
    naive: crate::systems::skirmish20::naive::SHOOTING,
};

/// How a figure near the target is covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// Wholly under the blast or template.
    Full,
    /// "Targets partly under a blast template roll a D6. on 4,5,6 they are hit."
    PartlyBlast,
    /// "Targets partly under a flamethrower template are automatically hit."
    PartlyTemplate,
}

/// A turn of fire.
#[derive(Clone, Debug)]
pub struct Shooting {
    /// The firer and its weapon.
    pub firer: Firer,
    /// The chart cell's values after choosing the armour column.
    pub target_value: Option<u8>,
    /// Value against others under the blast.
    pub others_value: Option<u8>,
    /// The missile's lock-on number.
    pub lock_on: Option<u8>,
    /// Sum of the ranged modifiers against the target.
    pub modifier: i32,
    /// Sum of the ranged modifiers against others under the blast (the
    /// same, but for the assault penalty, which depends on the value).
    pub others_modifier: i32,
    /// "If a swarm is hit by any area effect weapon it takes two hits not
    /// one": the target takes two hits from an area weapon's hit.
    pub target_double_hits: bool,
    /// The target.
    pub target: Toughness,
    /// Figures (common troopers) wholly under the blast besides the target.
    pub others_full: u8,
    /// Figures partly under it, and how partial cover is read.
    pub others_partly: u8,
    /// Partial cover of this weapon.
    pub partly: Cover,
    /// Toughness of the others (the target's, as a common trooper).
    pub others: Toughness,
    /// The target is already wounded.
    pub target_wounded: bool,
    /// The target is a vehicle: a hit that penetrates rolls on the Vehicle
    /// Damage Table instead of the Effect of Hit Chart.
    pub vehicle: Option<VehicleDamage>,
    /// "Only roll once per weapon firing": the others under the blast are
    /// read off the firing's own D20, not each their own.
    pub one_roll: bool,
    /// Ambidextrous: "Can fire two hand guns at same target for one AP":
    /// each AP fires two guns of the row, each its own D20; a gun's 20
    /// stops that gun only, and the other keeps firing.
    pub ambidextrous: bool,
}

/// Figures under a template, by wounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Group {
    healthy: u8,
    wounded: u8,
    dead: u8,
    hit: u8,
    /// Healthy and wounded at the moment this firing went off.
    at_firing: (u8, u8),
}

/// A turn of fire so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShotState {
    /// The firing being resolved went off (locked on, not jammed).
    firing: bool,
    /// No more firings this turn (jammed, out of fuel, broken).
    stopped: bool,
    jammed: bool,
    lost: bool,
    carries: bool,
    locked: u8,
    /// One D20 for the whole blast: the firing's roll hits the others.
    others_hit: bool,
    /// Firings whose D20 was rolled (after any lock-on).
    made: u8,
    hits: u8,
    target: Figure,
    vehicle: VehicleState,
    groups: [Group; 2],
    /// Ambidextrous: the second gun has stopped.
    stopped2: bool,
    /// Ambidextrous: AP spent firing (either gun still working), and guns
    /// jammed (not lost) waiting for 2 AP each.
    aps: u8,
    jams: u8,
}

/// Every metric of the shooting scenario.
pub const METRICS: [MetricDecl; 17] = [
    MetricDecl::probability(
        "p_hit",
        "P(target hit)",
        "P(at least one hit that penetrates)",
    ),
    MetricDecl::mean(
        "mean_hits",
        "mean hits on the target",
        "expected penetrating hits on the target",
    ),
    MetricDecl::probability(
        "p_dead",
        "P(target dead)",
        "P(the target is dead after the turn)",
    ),
    MetricDecl::probability(
        "p_wounded",
        "P(target wounded)",
        "P(the target is alive and wounded)",
    ),
    MetricDecl::probability(
        "p_duck_back",
        "P(target ducks back)",
        "P(the target is alive and ducked back)",
    ),
    MetricDecl::probability(
        "p_jam",
        "P(a 20: jam or worse)",
        "P(an unmodified 20 on a firing's D20)",
    ),
    MetricDecl::probability(
        "p_weapon_lost",
        "P(weapon lost for the game)",
        "P(out of fuel or broken)",
    ),
    MetricDecl::probability(
        "p_jammed_next_turn",
        "P(still jammed next turn)",
        "P(too few AP were left to clear a jam: next turn's first 2 AP go on it)",
    ),
    MetricDecl::mean(
        "mean_shots",
        "mean firings",
        "expected firings made (a failed lock-on fires nothing)",
    ),
    MetricDecl::probability(
        "p_locked_on",
        "P(locked on)",
        "P(the missile locks on at least once)",
    ),
    MetricDecl::mean(
        "mean_others_hit",
        "mean others hit",
        "expected hits on figures under the blast besides the target",
    ),
    MetricDecl::mean(
        "mean_others_dead",
        "mean others dead",
        "expected figures under the blast besides the target killed",
    ),
    MetricDecl::mean(
        "mean_others_wounded",
        "mean others wounded",
        "expected figures under the blast besides the target left wounded",
    ),
    MetricDecl::probability("hits={k}", "P({k} hits)", "P(exactly k hits on the target)"),
    MetricDecl::probability(
        "p_vehicle_wrecked",
        "P(vehicle burns or explodes)",
        "a vehicle target: P(burning or exploded after its hits on the Vehicle Damage Table)",
    ),
    MetricDecl::probability(
        "p_vehicle_immobilised",
        "P(vehicle immobilised)",
        "a vehicle target: P(immobilised or wrecked)",
    ),
    MetricDecl::probability(
        "p_vehicle_gun_out",
        "P(vehicle gun out)",
        "a vehicle target: P(some gun taken out or destroyed)",
    ),
];

/// A turn of fire with its metric handles.
pub struct ShootingRule {
    s: Shooting,
    shots: u32,
    /// Laws of one other figure's outcome, by group; with one D20 for the
    /// blast, given that the roll hits the others.
    laws: [Vec<(Option<Effect>, f64)>; 2],
    list: MetricList,
    m: [Metric; 6],
    figure: Option<[Metric; 3]>,
    vehicle: Option<[Metric; 3]>,
    locked: Option<Metric>,
    others: Option<[Metric; 3]>,
    hits: Vec<Metric>,
}

impl Shooting {
    /// The turn of fire with its metric handles.
    pub fn into_rule(self) -> ShootingRule {
        let shots = self.firer.shots(false) * if self.ambidextrous { 2 } else { 1 };
        let mut list = MetricList::new();
        let m = [0, 1, 5, 6, 7, 8].map(|i| list.add(&METRICS[i]));
        let figure = self
            .vehicle
            .is_none()
            .then(|| [2, 3, 4].map(|i| list.add(&METRICS[i])));
        let vehicle = self
            .vehicle
            .is_some()
            .then(|| [14, 15, 16].map(|i| list.add(&METRICS[i])));
        let locked = self.lock_on.map(|_| list.add(&METRICS[9]));
        let others = (self.others_full + self.others_partly > 0)
            .then(|| [10, 11, 12].map(|i| list.add(&METRICS[i])));
        let most = shots * if self.target_double_hits { 2 } else { 1 };
        let hits = list.family(&METRICS[13], 0..=most);
        let laws = [Cover::Full, self.partly].map(|c| self.other_law(c));
        ShootingRule {
            s: self,
            shots,
            laws,
            list,
            m,
            figure,
            vehicle,
            locked,
            others,
            hits,
        }
    }

    fn cover_p(c: Cover) -> f64 {
        match c {
            Cover::Full | Cover::PartlyTemplate => 1.0,
            Cover::PartlyBlast => 0.5,
        }
    }

    /// The exact law of one other figure's outcome in one firing; with
    /// one D20 for the blast, given that the firing's roll hits others.
    fn other_law(&self, c: Cover) -> Vec<(Option<Effect>, f64)> {
        let hit = if self.one_roll {
            1.0
        } else {
            (1..=20)
                .filter(|&r| {
                    matches!(
                        read_d20(r, self.others_value, self.others_modifier, false),
                        Roll::Hit { .. }
                    )
                })
                .count() as f64
                / 20.0
        };
        let p = Self::cover_p(c) * hit;
        let mut law = vec![(None, 1.0 - p)];
        law.extend(
            effect_law(self.others.hero)
                .into_iter()
                .map(|(e, q)| (Some(e), p * q)),
        );
        law
    }

    /// One other figure's outcome, rolled (with one D20 for the blast,
    /// given that the firing's roll hits others).
    fn other_roll(&self, c: Cover, dice: &mut impl Roller) -> Option<Effect> {
        if c == Cover::PartlyBlast && dice.d6() < 4 {
            return None;
        }
        if self.one_roll {
            return Some(roll_effect(dice, self.others));
        }
        match read_d20(
            dice.roll(20),
            self.others_value,
            self.others_modifier,
            false,
        ) {
            Roll::Hit { .. } => Some(roll_effect(dice, self.others)),
            _ => None,
        }
    }
}

impl ShootingRule {
    fn per_firing(&self) -> usize {
        1 + usize::from(self.s.others_full) + usize::from(self.s.others_partly)
    }

    /// Ambidextrous: gun `gun` (0, 1) fires in AP `ap`: each gun is the
    /// turn's one weapon for its own 20; AP are spent while either gun
    /// works ("for one AP"), and at the end each jam left takes 2 AP of
    /// what is left ("2AP's effort to unjam them"), else it carries over.
    fn gun<R: Roller>(&self, ap: u32, gun: usize, dice: &mut R, st: &mut ShotState) {
        if gun == 0 {
            if st.stopped && st.stopped2 {
                return;
            }
            st.aps += 1;
        }
        // `stopped` stands for the gun firing now
        if gun == 1 {
            std::mem::swap(&mut st.stopped, &mut st.stopped2);
        }
        self.main(ap, dice, st);
        if gun == 1 {
            std::mem::swap(&mut st.stopped, &mut st.stopped2);
        }
        let f = &self.s.firer;
        let left =
            f.ap.saturating_sub(f.moved_d6 + f.set_up + u32::from(st.aps));
        st.carries = u32::from(st.jams) > left / 2;
    }

    fn main<R: Roller>(&self, shot: u32, dice: &mut R, st: &mut ShotState) {
        st.firing = false;
        st.others_hit = false;
        if st.stopped {
            return;
        }
        if let Some(l) = self.s.lock_on {
            // "Rolle the L-xx number or less on 1D20 to lock on"
            if dice.roll(20) > u32::from(l) {
                return;
            }
            st.locked += 1;
        }
        st.made += 1;
        let roll = dice.roll(20);
        // "Only roll once per weapon firing": the same D20 against the others
        let others_hit = self.s.one_roll
            && matches!(
                read_d20(roll, self.s.others_value, self.s.others_modifier, false),
                Roll::Hit { .. }
            );
        match read_d20(roll, self.s.target_value, self.s.modifier, true) {
            Roll::Jam => {
                st.jammed = true;
                st.stopped = true;
                let lost = self.s.firer.row.on_20.lost_for_good();
                st.lost |= lost;
                st.carries = self.s.firer.jam_carries_over(shot + 1, false);
                if self.s.ambidextrous && !lost && self.s.firer.row.on_20 == OnTwenty::Jam {
                    st.jams += 1;
                }
                return;
            }
            Roll::Hit { .. } => {
                for _ in 0..if self.s.target_double_hits { 2 } else { 1 } {
                    st.hits += 1;
                    if let Some(v) = &self.s.vehicle {
                        v.damage(dice, &mut st.vehicle);
                    } else {
                        let e = roll_effect(dice, self.s.target);
                        st.target.take(e, self.s.target);
                    }
                }
            }
            Roll::Miss => {}
        }
        st.firing = true;
        st.others_hit = others_hit;
        for g in &mut st.groups {
            g.at_firing = (g.healthy, g.wounded);
        }
    }

    fn other<R: Roller>(&self, group: usize, j: u8, dice: &mut R, st: &mut ShotState) {
        if !st.firing {
            return;
        }
        if self.s.one_roll && !st.others_hit {
            return;
        }
        let g = &mut st.groups[group];
        let (h, w) = g.at_firing;
        if j >= h + w {
            return;
        }
        let cover = if group == 0 {
            Cover::Full
        } else {
            self.s.partly
        };
        let law = &self.laws[group];
        let outcome = dice.known(|| law, |d| self.s.other_roll(cover, d));
        let Some(e) = outcome else {
            return;
        };
        g.hit += 1;
        let was_healthy = j < h;
        match (e, was_healthy) {
            (Effect::DuckBack, _) => {}
            (Effect::Wounded, true) => {
                g.healthy -= 1;
                g.wounded += 1;
            }
            (Effect::Dead, true) => {
                g.healthy -= 1;
                g.dead += 1;
            }
            (_, false) => {
                g.wounded -= 1;
                g.dead += 1;
            }
        }
    }
}

impl Mechanic for ShootingRule {
    type State = ShotState;

    fn start(&self) -> ShotState {
        let mut s = ShotState::default();
        s.target.wounds = u8::from(self.s.target_wounded);
        s.groups[0].healthy = self.s.others_full;
        s.groups[1].healthy = self.s.others_partly;
        s
    }

    fn steps(&self) -> usize {
        self.shots as usize * self.per_firing()
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, st: &mut ShotState) {
        if self.s.ambidextrous {
            // a hand gun covers no area: one step a gun
            return self.gun((i / 2) as u32, i % 2, dice, st);
        }
        let shot = (i / self.per_firing()) as u32;
        let k = i % self.per_firing();
        let full = usize::from(self.s.others_full);
        if k == 0 {
            self.main(shot, dice, st);
        } else if k <= full {
            self.other(0, (k - 1) as u8, dice, st);
        } else {
            self.other(1, (k - 1 - full) as u8, dice, st);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, st: &ShotState, sink: &mut impl MetricSink) {
        let [hit, hits, jam, lost, carries, shots] = self.m;
        let t = st.target;
        sink.record(hit, u64::from(st.hits > 0));
        sink.record(hits, u64::from(st.hits));
        if let Some([dead, wounded, duck]) = self.figure {
            sink.record(dead, u64::from(t.dead));
            sink.record(wounded, u64::from(t.wounded(self.s.target)));
            sink.record(duck, u64::from(t.ducked && !t.dead));
        }
        if let Some([wrecked, immobilised, gun]) = self.vehicle {
            let v = st.vehicle;
            sink.record(wrecked, u64::from(v.wrecked()));
            sink.record(immobilised, u64::from(v.immobilised()));
            sink.record(gun, u64::from(v.gun_out()));
        }
        sink.record(jam, u64::from(st.jammed));
        sink.record(lost, u64::from(st.lost));
        sink.record(carries, u64::from(st.carries));
        sink.record(shots, u64::from(st.made));
        if let Some(l) = self.locked {
            sink.record(l, u64::from(st.locked > 0));
        }
        if let Some([hit_o, dead_o, wounded_o]) = self.others {
            let g = st.groups;
            sink.record(hit_o, u64::from(g[0].hit + g[1].hit));
            sink.record(dead_o, u64::from(g[0].dead + g[1].dead));
            let w = if self.s.others.enhanced_nervous_system {
                0
            } else {
                g[0].wounded + g[1].wounded
            };
            sink.record(wounded_o, u64::from(w));
        }
        sink.record(self.hits[usize::from(st.hits)], 1);
    }
}

crate::param_struct! {
    /// Parameters of the shooting scenario.
    pub struct ShootingParams {
        ..shot: ShotParams,
        toughness: ToughnessParams = prefixed("target_"),
        target_wounded: bool = flag()
            .about("the target is already wounded (a second wound kills)")
            .seed(EFFECT),
        target_vehicle: Given<bool> = flag()
            .about("the target is a vehicle: each hit that penetrates rolls on the Vehicle Damage Table (Effect of Hit metrics give way to the vehicle's), and it is a large target, +2 unless target_size says otherwise (a walker: large, +1); implied by armour = tank or target_size = tank, needed for a power-armoured Chimera, a tank's rear or a walker")
            .seed("Vehicle Damage Table 1D10"),
        target_minor_guns: Given<i64> = int(0, 4)
            .default("1")
            .about("a vehicle target's guns besides the biggest (a Chimera: 1)")
            .seed("Vehicle characteristics table")
            .needs("target_vehicle", "true"),
        target_scarab_swarm: bool = flag()
            .about("a Necron scarab swarm: an area weapon's hit counts as two hits (set target_kind = hero, armour = storm)")
            .seed("NECRON SPECIAL RULES"),
        assaulted_before_turn: bool = flag()
            .about("firing at assaulters before one's card is drawn: -1 if the chart value is under 8, else -2; no heavy weapons")
            .seed("ASSAULT"),
        others_under_template: i64 = int(0, 12)
            .default("0")
            .about("troopers wholly under the blast besides the target (common troopers of the same armour; the chart's second value)")
            .seed("WEAPONS FACTOR CHART (explanation)"),
        others_partly_under: i64 = int(0, 12)
            .default("0")
            .about("troopers partly under: a blast hits them on a D6 4+, the flamer's template always")
            .seed("WEAPONS FACTOR CHART (explanation)"),
        ambidextrous: bool = flag()
            .about("the Ambidextrous skill: \"Can fire two hand guns at same target for one AP\": each AP fires two of the weapon (a pistol: laser/machine, bolt or plasma; a row of one's own costing 1 AP, not heavy), each gun its own D20, a 20 stopping that gun only")
            .seed("SPECIAL SKILLS"),
    }
}

impl ShootingParams {
    /// A vehicle target's damage rule, when the target is a vehicle.
    fn vehicle_target(&self, v: &Params) -> Result<Option<VehicleDamage>, ParamError> {
        // Tank armour ("the strongest armour ... 13 or 14 armour in WH40K") and
        // a tank's size are a vehicle's: such a target is a vehicle without
        // target_vehicle, and target_vehicle = false cannot say otherwise.
        let target = &self.shot.target;
        let tank = if target.armour == Armour::Tank {
            Some(crate::param_name!(TargetParams.armour))
        } else if target.target_size.value.as_deref() == Some("tank") {
            Some(target.target_size.name())
        } else {
            None
        };
        if let Some(field) = tank
            && self.target_vehicle.given_value() == Some(false)
        {
            return Err(ParamError::new(
                crate::param_name!(ShootingParams.target_vehicle),
                format!(
                    "{field} = \"tank\" is a vehicle's: its hits roll on the Vehicle Damage Table; leave target_vehicle out (or give the figure's own armour and size)"
                ),
            ));
        }
        if tank.is_none() && !self.target_vehicle.value {
            if self.target_minor_guns.given {
                return Err(ParamError::new(
                    crate::param_name!(ShootingParams.target_minor_guns),
                    "only a vehicle target has guns: set target_vehicle = true",
                ));
            }
            return Ok(None);
        }
        Ok(Some(VehicleDamage {
            hits: 0,
            minor_guns: self.target_minor_guns.value as u8,
            passengers: 0,
            no_minor_gun: no_minor_gun(v)?,
        }))
    }
}

crate::variant_enum! {
    /// How the figures under a blast are rolled for (variant `blast_roll`).
    pub enum BlastRoll = "blast_roll" {
        /// Each figure besides the target rolls its own D20 against its
        /// value ("roll 8 or less for any other target caught in the blast
        /// area"), only the firing's own roll able to jam.
        EachFigure = "each_figure",
        /// "Only roll once per weapon firing": the firing's one D20 for all.
        Once = "once",
    }
    about: "figures under a blast or template besides the target: each rolls its own D20 against its value, only the firing's own roll able to jam (default: \"roll 8 or less for any other target caught in the blast area\"; \"you still only get one chance of a 20\"), or the firing's one D20 is read against every value (\"Only roll once per weapon firing\")",
}

/// Builds the model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ShootingParams::read(p)?;
    let firer = p.shot.firer()?;
    firer.check()?;
    let cell = firer.row.cells[p.shot.target.armour.column()];
    let area = p.shot.weapon.weapon_area.as_str();
    let others_full = p.others_under_template as u8;
    let others_partly = p.others_partly_under as u8;
    if area == "none" && others_full + others_partly > 0 {
        let field = if others_full > 0 {
            crate::param_name!(ShootingParams.others_under_template)
        } else {
            crate::param_name!(ShootingParams.others_partly_under)
        };
        return Err(ParamError::new(
            field,
            "the weapon covers no area (weapon_area = \"none\"): only the target can be hit",
        ));
    }
    // "Ambidextrous: Can fire two hand guns at same target for one AP"
    if p.ambidextrous {
        let preset = p.shot.weapon.weapon.value.as_deref();
        let hand_gun = match preset {
            Some("laser_machine_pistol" | "bolt_pistol" | "plasma_pistol") => true,
            Some("custom") | None => firer.row.ap == ApCost::One && !firer.heavy && area == "none",
            Some(_) => false,
        };
        if !hand_gun {
            return Err(ParamError::new(
                crate::param_name!(ShootingParams.ambidextrous),
                format!(
                    "\"Can fire two hand guns at same target for one AP\": {} is not a hand gun (the chart's pistols: laser_machine_pistol, bolt_pistol, plasma_pistol; a row of one's own: 1 AP, not heavy, no area)",
                    preset.unwrap_or("the row given")
                ),
            ));
        }
    }
    let target = p.toughness.toughness();
    let mut t = target;
    t.hero = false;
    let modifier = p.shot.modifiers(p.target_vehicle.value).total();
    // "If their to hit is <8 then deduct 1 otherwise deduct 2 from their
    // to hit roll. If armed with Heavy weapons they may not fire."
    let assaulted = p.assaulted_before_turn;
    if assaulted && firer.heavy {
        return Err(ParamError::new(
            crate::param_name!(ShootingParams.assaulted_before_turn),
            "\"If armed with Heavy weapons they may not fire\" (a heavy weapon: every 2-AP row, the vehicle chaingun, the Necron Destroyer gun)",
        ));
    }
    let assault = |value: Option<u8>| match value {
        Some(v) if assaulted => {
            if v < 8 {
                -1
            } else {
                -2
            }
        }
        _ => 0,
    };
    let double = p.target_scarab_swarm && area != "none";
    let shooting = Shooting {
        firer,
        target_value: cell.target,
        others_value: cell.others,
        lock_on: cell.lock_on,
        modifier: modifier + assault(cell.target),
        others_modifier: modifier + assault(cell.others),
        target_double_hits: double,
        target,
        others_full,
        others_partly,
        partly: if area == "template" {
            Cover::PartlyTemplate
        } else {
            Cover::PartlyBlast
        },
        others: t,
        target_wounded: p.target_wounded,
        vehicle: p.vehicle_target(v)?,
        one_roll: others_full + others_partly > 0 && BlastRoll::read(v)? == BlastRoll::Once,
        ambidextrous: p.ambidextrous,
    };
    Ok(Box::new(crate::engine::stages::FacesModel::new(
        shooting.into_rule(),
    )))
}

#[cfg(test)]
mod tests {
    use super::super::chart::parse_ranged_row;
    use super::*;
    use crate::engine::step_model::StepModel;
    use crate::systems::Model;

    fn turn(row: &str, column: usize, range: u32, others: u8) -> (Vec<String>, Vec<f64>) {
        let row = parse_ranged_row(row, "w").unwrap();
        let cell = row.cells[column];
        let trooper = Toughness::default();
        let s = Shooting {
            firer: Firer {
                row,
                range,
                ap: 3,
                moved_d6: 0,
                firing_ap: 2,
                heavy: false,
                set_up: 0,
            },
            target_value: cell.target,
            others_value: cell.others,
            lock_on: cell.lock_on,
            modifier: 0,
            others_modifier: 0,
            target_double_hits: false,
            target: trooper,
            others_full: others,
            others_partly: 0,
            partly: Cover::PartlyBlast,
            others: trooper,
            target_wounded: false,
            vehicle: None,
            one_roll: false,
            ambidextrous: false,
        };
        let m = StepModel::new(s.into_rule());
        let names = m.metrics().iter().map(|d| d.name.clone()).collect();
        (names, m.exact().unwrap())
    }

    fn get(r: &(Vec<String>, Vec<f64>), name: &str) -> f64 {
        r.1[r.0.iter().position(|n| n == name).unwrap()]
    }

    #[test]
    fn a_bolt_rifle_at_half_range_fires_twice_unless_it_jams() {
        // 8 or less hits; a 20 jams and ends the turn's fire
        let r = turn("24 | 8 | 6 | 4 | 1 | 1/2 | jam", 0, 12, 0);
        let miss_both = 11.0 / 20.0 * 12.0 / 20.0 + 1.0 / 20.0;
        assert!((get(&r, "p_hit") - (1.0 - miss_both)).abs() < 1e-12);
        assert!((get(&r, "p_jam") - (1.0 / 20.0 + 19.0 / 20.0 / 20.0)).abs() < 1e-12);
        // a jam on the second shot leaves 1 AP: still jammed next turn
        assert!((get(&r, "p_jammed_next_turn") - 19.0 / 400.0).abs() < 1e-12);
        // beyond half range: one 2-AP shot
        let r = turn("24 | 8 | 6 | 4 | 1 | 1/2 | jam", 0, 13, 0);
        assert!((get(&r, "p_hit") - 8.0 / 20.0).abs() < 1e-12);
    }

    #[test]
    fn the_missile_locks_on_before_it_fires_and_hits_others_on_the_second_value() {
        // power armour: L-14 to lock on, 12 on the target, 3 on the others
        let r = turn(
            "30 | 18/8 L-10 | 17/6 L-12 | 12/3 L-14 | 9/X L-16 | 2 | jam",
            2,
            20,
            2,
        );
        assert!((get(&r, "p_locked_on") - 0.7).abs() < 1e-12);
        assert!((get(&r, "p_hit") - 0.7 * 0.6).abs() < 1e-12);
        assert!((get(&r, "p_dead") - 0.7 * 0.6 / 3.0).abs() < 1e-12);
        // others fire only when the target's roll is not a 20
        assert!((get(&r, "mean_others_hit") - 2.0 * 0.7 * 0.95 * 3.0 / 20.0).abs() < 1e-12);
        // X on a tank: nothing, not even a 1
        let r = turn("12 | 7 | 4 | 2 | X | 1 | jam", 3, 6, 0);
        assert_eq!(get(&r, "p_hit"), 0.0);
    }
}

#[cfg(test)]
mod scenario_tests {
    use crate::systems::testing;

    /// The exact value of `metric` for the shooting scenario at `point`.
    fn shooting(point: &[(&str, &str)], metric: &str) -> f64 {
        testing::exact(
            &*testing::model(&super::super::RULES, "shooting", point),
            metric,
        )
    }

    #[test]
    fn assaulted_before_their_turn_firers_lose_one_under_8_and_two_from_8() {
        // machine pistol 7 against standard armour: 7 - 1 (assault) - 2 (moving) = 4
        let base = [
            ("weapon", "laser_machine_pistol"),
            ("armour", "std"),
            ("range", "4"),
            ("target_cover", "moving"),
        ];
        let mut assaulted = base.to_vec();
        assaulted.push(("assaulted_before_turn", "true"));
        let hit = |v: f64| 1.0 - ((19.0 - v) / 20.0 * (20.0 - v) / 20.0 + 1.0 / 20.0);
        assert!((shooting(&base, "p_hit") - hit(5.0)).abs() < 1e-12);
        assert!((shooting(&assaulted, "p_hit") - hit(4.0)).abs() < 1e-12);
        // bolt rifle 8 at 10": two 1-AP shots at 8 - 2 = 6
        let bolt = [
            ("weapon", "bolt_rifle"),
            ("armour", "std"),
            ("range", "10"),
            ("assaulted_before_turn", "true"),
        ];
        assert!((shooting(&bolt, "p_hit") - hit(6.0)).abs() < 1e-12);
    }

    #[test]
    fn a_vehicle_target_rolls_on_the_vehicle_damage_table() {
        // melta 9 against tank armour, +2 for a tank: 11 or less, one 2-AP
        // shot; a 9 or 10 on the D10 wrecks it
        let point = [
            ("weapon", "melta_gun"),
            ("armour", "tank"),
            ("range", "6"),
            ("target_size", "tank"),
            ("target_vehicle", "true"),
        ];
        assert!((shooting(&point, "p_hit") - 11.0 / 20.0).abs() < 1e-12);
        assert!((shooting(&point, "p_vehicle_wrecked") - 11.0 / 20.0 * 0.2).abs() < 1e-12);
        assert!((shooting(&point, "p_vehicle_immobilised") - 11.0 / 20.0 * 0.4).abs() < 1e-12);
    }

    #[test]
    fn a_scarab_swarm_takes_two_hits_from_an_area_weapon() {
        // heavy bolter 6 against storm armour: one 2-AP shot; the swarm is a
        // Hero: dead on a 6 on either effect die, or on two wounds
        let point = [
            ("weapon", "heavy_bolter"),
            ("armour", "storm"),
            ("range", "10"),
            ("target_kind", "hero"),
            ("target_scarab_swarm", "true"),
        ];
        let dead = 6.0 / 20.0 * (11.0 / 36.0 + 4.0 / 36.0);
        assert!((shooting(&point, "p_dead") - dead).abs() < 1e-12);
        assert!((shooting(&point, "mean_hits") - 2.0 * 6.0 / 20.0).abs() < 1e-12);
    }
}

//! GCE grenades that miss, warriors on fire, and falls: the rules. Each
//! one's scenario (declaration, parameters, builder) is a child module
//! named after it.

pub mod edge;
pub mod fall;
pub mod fire;
pub mod grenade;
pub mod jump;

use super::tables::{hit_needed, hit_with};
use super::warrior::{Condition, Damage, Hit, Status, WarriorStats};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated, round_metrics};
use crate::engine::step_model::Mechanic;
use crate::systems::{MetricDecl, MetricList};

/// "Maximum range of throw = (Warrior’s Strength x 2) + 2”" and "it can
/// never be more than 12”" (Grenades and Stikkbombz, Throw Table).
pub fn throw_range(strength: u8) -> u32 {
    (2 * u32::from(strength) + 2).min(12)
}

/// A thrown grenade: to hit, and where it goes when it misses (Scattering
/// Grenades, Unreliable Explosives).
#[derive(Clone, Debug)]
pub struct Grenade {
    /// Thrower's BS.
    pub bs: i32,
    /// Hit modifiers (cover, small target when aimed at the ground ...).
    pub hit_modifier: i32,
    /// Whether the target is within the throw range.
    pub in_range: bool,
    /// Ammo Roll value, if the grenade has one.
    pub ammo: Option<u32>,
}

/// The grenade rule with its metric handles.
pub struct GrenadeRule {
    grenade: Grenade,
    list: MetricList,
    on_target: Metric,
    scatters: Metric,
    dud: Metric,
    unreliable: Metric,
    on_thrower: Metric,
    lands_2d6_away: Metric,
    delayed: Metric,
    fumbled: Metric,
    out_of_ammo: Metric,
    /// `scatter[d - 1]`: misses by exactly `d` inches.
    scatter: Vec<Metric>,
}

/// Every metric of the grenade scenario.
pub const GRENADE_METRICS: [MetricDecl; 10] = [
    MetricDecl::probability(
        "p_on_target",
        "P(on target)",
        "P(the grenade hits the target)",
    ),
    MetricDecl::probability(
        "p_scatters",
        "P(scatters)",
        "P(it misses and lands 1-5\" away)",
    ),
    MetricDecl::probability("p_dud", "P(dud)", "P(a 6 for distance and an arrow: a dud)"),
    MetricDecl::probability(
        "p_unreliable",
        "P(Unreliable Explosives)",
        "P(a 6 for distance and Hit: Unreliable Explosives)",
    ),
    MetricDecl::probability(
        "p_explodes_on_thrower",
        "P(explodes over the thrower)",
        "P(Unreliable Explosives 1: over the thrower)",
    ),
    MetricDecl::probability(
        "p_lands_2d6_away",
        "P(lands 2D6\" away)",
        "P(Unreliable Explosives 2-3)",
    ),
    MetricDecl::probability(
        "p_delayed",
        "P(delayed)",
        "P(Unreliable Explosives 4-5: lands 2D6\" awry, goes off later)",
    ),
    MetricDecl::probability(
        "p_fumbled",
        "P(fumbled)",
        "P(Unreliable Explosives 6: dropped, does not go off)",
    ),
    MetricDecl::probability("p_out_of_ammo", "P(out of ammo)", "P(a failed Ammo Roll)"),
    MetricDecl::probability(
        "scatter={k}",
        "P(misses by {k}\")",
        "P(misses by exactly k inches), k = 1..5",
    ),
];

impl Grenade {
    /// The grenade with its metric handles.
    pub fn into_rule(self) -> GrenadeRule {
        let mut list = MetricList::new();
        let [t, sc, dud, unr, thr, away, del, fum, ammo, scatter] = &GRENADE_METRICS;
        GrenadeRule {
            grenade: self,
            on_target: list.add(t),
            scatters: list.add(sc),
            dud: list.add(dud),
            unreliable: list.add(unr),
            on_thrower: list.add(thr),
            lands_2d6_away: list.add(away),
            delayed: list.add(del),
            fumbled: list.add(fum),
            out_of_ammo: list.add(ammo),
            scatter: list.family(scatter, 1..=5),
            list,
        }
    }
}

/// Where a grenade ends up.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GrenadeState {
    natural_six: bool,
    hit: bool,
    distance: u8,
    hit_symbol: bool,
    unreliable: u8,
    out_of_ammo: bool,
}

impl Mechanic for GrenadeRule {
    type State = GrenadeState;

    fn start(&self) -> GrenadeState {
        GrenadeState {
            natural_six: false,
            hit: false,
            distance: 0,
            hit_symbol: false,
            unreliable: 0,
            out_of_ammo: false,
        }
    }

    fn steps(&self) -> usize {
        5
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut GrenadeState) {
        let g = &self.grenade;
        match i {
            0 => {
                let first = dice.d6();
                s.natural_six = first == 6;
                s.hit = g.in_range && hit_with(first, hit_needed(g.bs, g.hit_modifier), dice);
            }
            // "Assuming your Warrior missed - roll a D6 ... how far off"
            1 if !s.hit => s.distance = dice.d6() as u8,
            // "A Scatter die has arrows on four sides and two "Hit" symbols"
            2 if !s.hit => s.hit_symbol = dice.d6() > 4,
            3 if !s.hit && s.distance == 6 && s.hit_symbol => s.unreliable = dice.d6() as u8,
            4 => {
                if let (Some(a), true) = (g.ammo, s.natural_six) {
                    s.out_of_ammo = dice.d6() < a;
                }
            }
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &GrenadeState, sink: &mut impl MetricSink) {
        let missed = !s.hit;
        sink.record(self.on_target, u64::from(s.hit));
        sink.record(self.scatters, u64::from(missed && s.distance < 6));
        sink.record(
            self.dud,
            u64::from(missed && s.distance == 6 && !s.hit_symbol),
        );
        sink.record(self.unreliable, u64::from(missed && s.unreliable > 0));
        sink.record(self.on_thrower, u64::from(s.unreliable == 1));
        sink.record(
            self.lands_2d6_away,
            u64::from((2..=3).contains(&s.unreliable)),
        );
        sink.record(self.delayed, u64::from((4..=5).contains(&s.unreliable)));
        sink.record(self.fumbled, u64::from(s.unreliable == 6));
        sink.record(self.out_of_ammo, u64::from(s.out_of_ammo));
        if missed && (1..=5).contains(&s.distance) {
            sink.record(self.scatter[usize::from(s.distance) - 1], 1);
        }
    }
}

/// Warriors on Fire: "roll a D6 ... On a 6 the Fire goes out ... Anything
/// less than 6 causes them to take a Strength 4 Hit"; "If the Strength 4
/// Hit puts them Down (or Out of Action) then the Fire goes out"; "For each
/// friendly helping add +1 to the D6 roll. A total of 6 causes the Fire to
/// go out." Repeats every turn: an absorbing chain, solved exactly by
/// [`RepeatModel`].
#[derive(Clone, Debug)]
pub struct Fire {
    /// The burning warrior.
    pub victim: WarriorStats,
    /// Friends helping each turn.
    pub helpers: u32,
}

/// Turns counted one by one in the metrics.
pub const TURNS_SHOWN: usize = 6;

/// A burning warrior's state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Burning {
    condition: Condition,
    out: bool,
}

impl Fire {
    fn turn(&self, dice: &mut impl Roller, s: &mut Burning) {
        if dice.d6() + self.helpers >= 6 {
            s.out = true;
            return;
        }
        // The S4 hit through the warrior's hit pipeline, with the Armour
        // Modifiers table's -1 for Strength 4 (reading: a hit with a
        // Strength takes that Strength's save modifier).
        let hit = Hit::by_strength(4, Damage::fixed(1));
        s.condition.take_hit(dice, &self.victim, &hit);
        s.out |= s.condition.is_down_or_out();
    }

    fn initial(&self) -> Burning {
        Burning {
            condition: self.victim.fresh(),
            out: false,
        }
    }
}

/// The fire's own metrics (turn counts are added by [`RepeatModel`]).
pub const FIRE_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_out_of_action",
        "P(out of action)",
        "P(Out of Action before the fire is out)",
    ),
    MetricDecl::probability("p_down", "P(Down)", "P(Down, which puts the fire out)"),
    MetricDecl::probability(
        "p_flesh_wound",
        "P(Flesh Wound)",
        "P(on its feet with a Flesh Wound when the fire goes out)",
    ),
    MetricDecl::probability(
        "p_unhurt",
        "P(unhurt)",
        "P(no wound lost when the fire goes out)",
    ),
];

/// Every metric of the fire scenario, turn counts included.
pub fn fire_metric_catalog() -> Vec<MetricDecl> {
    FIRE_METRICS
        .into_iter()
        .chain(round_metrics(FireRule::ROUND))
        .collect()
}

/// The fire rule with its metric handles.
pub struct FireRule {
    fire: Fire,
    list: MetricList,
    out_of_action: Metric,
    down: Metric,
    flesh_wound: Metric,
    unhurt: Metric,
}

impl Fire {
    /// The fire model: turns repeated until the fire is out.
    pub fn into_model(self) -> RepeatModel<FireRule> {
        let mut list = MetricList::new();
        let [ooa, down, flesh, unhurt] = &FIRE_METRICS;
        let rule = FireRule {
            fire: self,
            out_of_action: list.add(ooa),
            down: list.add(down),
            flesh_wound: list.add(flesh),
            unhurt: list.add(unhurt),
            list,
        };
        RepeatModel::new(rule, TURNS_SHOWN)
    }
}

impl Repeated for FireRule {
    type State = Burning;

    const ROUND: &'static str = "turns";

    fn start(&self) -> Burning {
        self.fire.initial()
    }

    fn over(&self, s: &Burning) -> bool {
        s.out
    }

    fn sub_steps(&self) -> usize {
        1
    }

    fn sub_step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut Burning) {
        self.fire.turn(dice, s);
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Burning, sink: &mut impl MetricSink) {
        let c = &s.condition;
        sink.record(
            self.out_of_action,
            u64::from(c.status == Status::OutOfAction),
        );
        sink.record(self.down, u64::from(c.status == Status::Down));
        sink.record(self.flesh_wound, u64::from(c.status == Status::FleshWound));
        sink.record(
            self.unhurt,
            u64::from(c.status == Status::Standing && c.wounds_left == self.fire.victim.wounds),
        );
    }
}

/// Fall Damage: "from height greater than 2” ... they take a Hit. The
/// Strength is equal to the number of inches they have fallen rounding up.
/// However a fall of 10” or more will take a Warrior Out of Action
/// instantly. A fall of under 6” inflicts 1 Damage, 6” or more inflicts D3
/// Damage. Warriors cannot take any sort of saving throw against fall
/// damage. Falling like this will Pin ... If the falling Warrior falls on top
/// of another Warrior then roll a D6. On a 4+ the other Warrior takes the
/// same damage as the falling Warrior!"
#[derive(Clone, Debug)]
pub struct Fall {
    /// Height in inches.
    pub height: f64,
    /// The faller.
    pub victim: WarriorStats,
    /// Whether it lands on another warrior.
    pub lands_on_warrior: bool,
}

/// A fall's outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FallState {
    condition: Condition,
    damage: u8,
    other_damage: u8,
    other_out: bool,
}

/// Every metric of the fall scenario.
pub const FALL_METRICS: [MetricDecl; 8] = [
    MetricDecl::probability(
        "p_wounded",
        "P(wounded)",
        "P(the faller loses a wound or goes Out of Action)",
    ),
    MetricDecl::mean(
        "mean_damage",
        "mean Damage",
        "expected Damage to the faller",
    ),
    MetricDecl::probability(
        "p_flesh_wound",
        "P(Flesh Wound)",
        "P(on its feet with a Flesh Wound)",
    ),
    MetricDecl::probability("p_down", "P(Down)", "P(Down)"),
    MetricDecl::probability("p_out_of_action", "P(out of action)", "P(Out of Action)"),
    MetricDecl::probability("p_pinned", "P(pinned)", "P(Pinned by the fall)"),
    MetricDecl::probability(
        "p_other_hurt",
        "P(warrior landed on hurt)",
        "P(the warrior landed on takes damage)",
    ),
    MetricDecl::mean(
        "mean_other_damage",
        "mean Damage to the warrior landed on",
        "expected Damage to the warrior landed on",
    ),
];

/// The fall rule with its metric handles.
pub struct FallRule {
    fall: Fall,
    list: MetricList,
    /// Handles in the order of [`FALL_METRICS`].
    m: [Metric; 8],
}

impl Fall {
    /// The fall with its metric handles.
    pub fn into_rule(self) -> FallRule {
        let mut list = MetricList::new();
        let m = FALL_METRICS.map(|d| list.add(&d));
        FallRule {
            fall: self,
            list,
            m,
        }
    }
}

impl FallRule {
    /// The fall as one part of a larger rule (a failed jump): its metrics
    /// are added to `list`, the larger rule's, and recorded there.
    pub fn part_of(fall: Fall, list: &mut MetricList) -> FallRule {
        let m = FALL_METRICS.map(|d| list.add(&d));
        FallRule {
            fall,
            list: MetricList::new(),
            m,
        }
    }

    /// Records the fall's metrics for a warrior that did not fall: nothing
    /// happened to it (every metric 0, not Pinned).
    pub fn record_no_fall(&self, sink: &mut impl MetricSink) {
        for m in self.m {
            sink.record(m, 0);
        }
    }
}

impl Mechanic for FallRule {
    type State = FallState;

    fn start(&self) -> FallState {
        FallState {
            condition: self.fall.victim.fresh(),
            damage: 0,
            other_damage: 0,
            other_out: false,
        }
    }

    fn steps(&self) -> usize {
        2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut FallState) {
        let f = &self.fall;
        if f.height <= 2.0 {
            return;
        }
        let instantly_out = f.height >= 10.0;
        match i {
            0 if instantly_out => s.condition.status = Status::OutOfAction,
            0 => {
                // No save of any sort: the hit goes straight to Damage.
                let hit = Hit {
                    strength: f.height.ceil().min(10.0) as u8,
                    save_modifier: None,
                    damage: if f.height < 6.0 {
                        Damage::fixed(1)
                    } else {
                        Damage::dice(1, 3, 0)
                    },
                };
                s.damage = s.condition.take_hit(dice, &f.victim, &hit).damage as u8;
            }
            // the other warrior takes the same damage on a 4+ (reading: after
            // a fall of 10" or more, the same fate: Out of Action)
            1 if f.lands_on_warrior && (s.damage > 0 || instantly_out) => {
                let same_fate = dice.d6() >= 4;
                s.other_damage = if same_fate { s.damage } else { 0 };
                s.other_out = same_fate && instantly_out;
            }
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &FallState, sink: &mut impl MetricSink) {
        self.record_state(s, true, sink);
    }
}

impl FallRule {
    /// Records the fall's metrics for a warrior that did not fall but may
    /// not be unhurt (Down at the edge of a drop): its condition as it
    /// stands, no Damage, not Pinned by a fall.
    pub fn record_stayed(&self, s: &FallState, sink: &mut impl MetricSink) {
        self.record_state(s, false, sink);
    }

    fn record_state(&self, s: &FallState, fell: bool, sink: &mut impl MetricSink) {
        let c = &s.condition;
        let f = &self.fall;
        let [
            wounded,
            damage,
            flesh,
            down,
            out,
            pinned,
            other_hurt,
            other_damage,
        ] = self.m;
        sink.record(
            wounded,
            u64::from(s.damage > 0 || c.status == Status::OutOfAction),
        );
        sink.record(damage, u64::from(s.damage));
        sink.record(flesh, u64::from(c.status == Status::FleshWound));
        sink.record(down, u64::from(c.status == Status::Down));
        sink.record(out, u64::from(c.status == Status::OutOfAction));
        sink.record(
            pinned,
            u64::from(fell && f.height > 2.0 && !f.victim.pin_immune && !c.is_down_or_out()),
        );
        sink.record(other_hurt, u64::from(s.other_damage > 0 || s.other_out));
        sink.record(other_damage, u64::from(s.other_damage));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throw_table_matches_the_seed_text() {
        if !crate::systems::seed_text::available(crate::systems::gce::tables::SEED) {
            return;
        }
        // Throw Table: "| Thrower’s Strength | Range of Throw |" then rows
        let cells = crate::systems::seed_text::table_cells(
            crate::systems::gce::tables::SEED,
            "| Thrower’s Strength |",
            "Throwing Grenades Between",
        );
        let rows: Vec<(u8, u32)> = cells[2..]
            .chunks(2)
            .map(|c| {
                (
                    c[0].trim_end_matches('+').parse().unwrap(),
                    c[1].trim_end_matches('”').parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(rows.len(), 5, "{cells:?}");
        for (s, r) in rows {
            assert_eq!(throw_range(s), r, "S{s}");
        }
        // "5+": every Strength above 5 throws 12" too
        assert_eq!(throw_range(10), 12);
    }
}

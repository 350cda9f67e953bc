//! A vehicle location on Fire, turn after turn until it goes out
//! (Vehicles Catching Fire): "At the start of the Target Players own turn
//! roll a D6 for each Location that is on Fire! On a 1 - 5 it takes a S4
//! Hit. On a 6 the Fire goes out." and "Each Warrior helping to put out
//! the Fire Modifies the dice roll above by +1." A fire on the Crew
//! location hits every warrior aboard ("If the Crew Location is hit then
//! see the section above"). An absorbing chain, exact by [`RepeatModel`].

use super::damage::{Penetration, Vehicle};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated};
use crate::systems::gce::warrior::Damage;
use crate::systems::gce::warrior::{Condition, Hit, Status, WarriorStats};
use crate::systems::{MetricDecl, MetricList};

/// A burning location.
#[derive(Clone, Debug)]
pub struct BurningLocation {
    /// The vehicle.
    pub vehicle: Vehicle,
    /// Which location burns.
    pub location: usize,
    /// Crew helping to put it out (+1 each).
    pub helpers: u8,
    /// The warriors aboard, when the Crew location burns.
    pub crew: Option<(u8, WarriorStats)>,
}

/// The fire's state: out or not, what it has done so far.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FireState {
    out: bool,
    /// Penetrating hits so far, counted up to [`COUNTED`].
    pens: u8,
    /// Damage Table results seen (one bit per effect).
    seen: u32,
    /// The warriors aboard, worst first (a Crew fire).
    crew: Vec<Condition>,
}

/// Penetrating hits are counted "one, two, three or more": enough for
/// P(k+) and a finite chain.
const COUNTED: u8 = 3;

/// Every metric of the vehicle-fire scenario (besides the turns).
pub const VEHICLE_FIRE_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_penetrated_{k}_plus",
        "P({k}+ penetrating hits from the fire)",
        "P(the fire's S4 hits penetrate at least k times before it goes out), k = 1..3",
    ),
    MetricDecl::probability(
        "p_effect_{k}",
        "P(at least one '{k}')",
        "P(the location's Damage Table gives this result at least once)",
    ),
    MetricDecl::mean(
        "mean_crew_out_of_action",
        "mean crew out of action",
        "expected warriors aboard taken Out of Action by a Crew fire",
    ),
    MetricDecl::probability(
        "p_crew_out_of_action",
        "P(a crew member out of action)",
        "P(at least one warrior aboard taken Out of Action by a Crew fire)",
    ),
];

/// The fire with its metric handles.
pub struct FireRule {
    fire: BurningLocation,
    list: MetricList,
    at_least: Vec<Metric>,
    effects: Vec<Metric>,
    crew: Option<(Metric, Metric)>,
}

/// The Strength 4 hit a fire deals each turn.
fn fire_hit() -> Hit {
    Hit::by_strength(4, Damage::fixed(1))
}

impl BurningLocation {
    /// The fire's model; turn counts up to `shown` are reported one by one.
    pub fn into_model(self, shown: usize) -> RepeatModel<FireRule> {
        let mut list = MetricList::new();
        let d = &VEHICLE_FIRE_METRICS;
        let at_least = list.family(&d[0], 1..=COUNTED);
        let effects = match self.vehicle.tables[self.location] {
            Some(t) => {
                let mut used: Vec<u8> = t.to_vec();
                used.sort_unstable();
                used.dedup();
                used.into_iter()
                    .map(|e| {
                        let name = &self.vehicle.effects[usize::from(e)];
                        list.add_k_worded(&d[1], name, &name.replace('_', " "))
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let crew = self
            .crew_burns()
            .then(|| (list.add(&d[2]), list.add(&d[3])));
        RepeatModel::new(
            FireRule {
                fire: self,
                list,
                at_least,
                effects,
                crew,
            },
            shown,
        )
    }

    fn crew_burns(&self) -> bool {
        self.vehicle.crew_location() == Some(self.location)
            && self.crew.as_ref().is_some_and(|(n, _)| *n > 0)
    }
}

impl Repeated for FireRule {
    type State = FireState;

    const ROUND: &'static str = "turns";

    fn start(&self) -> FireState {
        let crew = match (&self.fire.crew, self.fire.crew_burns()) {
            (Some((n, stats)), true) => vec![stats.fresh(); usize::from(*n)],
            _ => Vec::new(),
        };
        FireState {
            out: false,
            pens: 0,
            seen: 0,
            crew,
        }
    }

    fn over(&self, s: &FireState) -> bool {
        s.out
    }

    fn sub_steps(&self) -> usize {
        1
    }

    fn sub_step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut FireState) {
        let f = &self.fire;
        if dice.d6() + u32::from(f.helpers) >= 6 {
            s.out = true;
            return;
        }
        if !s.crew.is_empty() {
            // the Crew location: every warrior aboard takes the S4 hit
            let stats = &f.crew.as_ref().expect("a crew fire has a crew").1;
            for c in s.crew.iter_mut() {
                c.take_hit(dice, stats, &fire_hit());
            }
            s.crew.sort_unstable();
            return;
        }
        let struck = f.vehicle.struck_at(
            dice,
            f.location,
            Penetration::Strength {
                strength: 4,
                bonus_die: false,
            },
        );
        if struck.penetrating {
            s.pens = (s.pens + 1).min(COUNTED);
        }
        if let Some(e) = struck.effect {
            s.seen |= 1 << e;
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &FireState, sink: &mut impl MetricSink) {
        for (k, &h) in self.at_least.iter().enumerate() {
            sink.record(h, u64::from(s.pens > k as u8));
        }
        if let Some(t) = self.fire.vehicle.tables[self.fire.location] {
            let mut used: Vec<u8> = t.to_vec();
            used.sort_unstable();
            used.dedup();
            for (h, e) in self.effects.iter().zip(used) {
                sink.record(*h, u64::from(s.seen & (1 << e) != 0));
            }
        }
        if let Some((mean, any)) = self.crew {
            let out = s
                .crew
                .iter()
                .filter(|c| c.status == Status::OutOfAction)
                .count() as u64;
            sink.record(mean, out);
            sink.record(any, u64::from(out > 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::vehicles::damage::{Size, test_trukk};

    use crate::dice::testing::Faces;

    fn trukk() -> Vehicle {
        test_trukk(Size::Large, "wheels")
    }

    /// "Nazgrab’s Trukk’s wheels are on Fire. There’s three Crew onboard
    /// (including the Gunner). The Gunner decides to shoot but the other
    /// two lads spend the time trying to put out the Fire. The player rolls
    /// D6 and adds 2 ... they roll a 3 giving a total of 5. If the Gunner
    /// had helped that would have been 3+3 giving the 6 needed for the Fire
    /// to go out. As a result the wheels take a S4 Hit."
    #[test]
    fn nazgrab_two_helpers_and_a_three_leave_the_wheels_burning_and_hit() {
        let rule = |helpers| {
            BurningLocation {
                vehicle: trukk(),
                location: 3,
                helpers,
                crew: None,
            }
            .into_model(5)
        };
        let two = rule(2);
        let mut s = two.rule().start();
        // a 3 (+2 = 5): not out; the S4 hit on the Wheels (8) penetrates on 4+
        let mut dice = Faces([3, 4].into());
        two.rule().sub_step(0, &mut dice, &mut s);
        assert!(!s.out && s.pens == 1 && dice.0.is_empty());
        // with the Gunner helping, the same 3 puts it out
        let three = rule(3);
        let mut s = three.rule().start();
        three.rule().sub_step(0, &mut Faces([3].into()), &mut s);
        assert!(s.out && s.pens == 0);
    }

    #[test]
    fn turns_burning_are_geometric_in_the_helpers() {
        use crate::systems::Model;
        for helpers in 0..=5u8 {
            let model = BurningLocation {
                vehicle: trukk(),
                location: 5,
                helpers,
                crew: None,
            }
            .into_model(3);
            let exact = model.exact().unwrap();
            let at = |name: &str| {
                let i = model.metrics().iter().position(|m| m.name == name).unwrap();
                exact[i]
            };
            // out with probability (1 + helpers) / 6 each turn
            let q = f64::from(1 + helpers) / 6.0;
            assert!((at("mean_turns") - 1.0 / q).abs() < 1e-12, "{helpers}");
            // Engines 10: S4 penetrates on a 6; P(at least one) over the
            // burning turns: each turn not out hits, 1/6 to penetrate
            let hit = (1.0 - q) / 6.0;
            let p_none = q / (q + hit);
            assert!((at("p_penetrated_1_plus") - (1.0 - p_none)).abs() < 1e-12);
        }
    }
}

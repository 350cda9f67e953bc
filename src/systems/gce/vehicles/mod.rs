//! Gorkamorka's vehicles: damage by location, fire, movement tests, rams
//! and collisions, squashing, boarding, and the Fort gate (Vehicles;
//! Taking Damage; Boarding Actions; Forts).

pub mod boarding;
pub mod damage;
pub mod fire;
pub mod gate;
pub mod hits;
pub mod movement;
pub mod params;
pub mod rams;

use crate::engine::repeat_model::round_metrics;
use crate::systems::MetricDecl;

/// Every metric of the vehicle-fire scenario, its turns included.
pub fn fire_metric_catalog() -> Vec<MetricDecl> {
    fire::VEHICLE_FIRE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the thrust scenario.
pub fn thrust_metric_catalog() -> Vec<MetricDecl> {
    movement::THRUST_METRICS.to_vec()
}

/// Every metric of the out-of-control scenario, its turns included.
pub fn out_of_control_metric_catalog() -> Vec<MetricDecl> {
    movement::OUT_OF_CONTROL_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the gate scenario, its turns included.
pub fn gate_metric_catalog() -> Vec<MetricDecl> {
    gate::GATE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every vehicle table checked against the seed text as printed.
#[cfg(test)]
mod seed_tables {
    use super::damage::{PRESETS, parse_locations, parse_thrust};
    use super::gate::{GateResult, gate_table};
    use super::movement::{Buster, thruster_buster};
    use crate::systems::gce::tables::SEED;
    use crate::systems::seed_text::{available, table_cells};

    /// "| Ork Trukk with ‘Eavy Shoota and Boarding Plank | ... | 1 | 8 |
    /// Crew | 4 | 8 | Wheels | ..." against the preset.
    #[test]
    fn the_trukk_hit_location_table_is_the_seeds() {
        if !available(SEED) {
            return;
        }
        let cells = table_cells(
            SEED,
            "| Ork Trukk with ‘Eavy Shoota and Boarding Plank |",
            "These are mostly fixed",
        );
        // after the header "D6 Armour Location D6 Armour Location": rows of six
        let at = cells.iter().position(|c| c == "1").expect("the first row");
        let mut rows: Vec<(u8, u8, String)> = cells[at..]
            .chunks(3)
            .map(|r| {
                (
                    r[0].parse().unwrap(),
                    r[1].parse().unwrap(),
                    r[2].to_ascii_lowercase(),
                )
            })
            .collect();
        rows.sort();
        let preset = PRESETS.iter().find(|p| p.name == "ork_trukk").unwrap();
        let locations = preset
            .sets
            .iter()
            .find(|(k, _)| *k == "locations")
            .unwrap()
            .1;
        let encoded = parse_locations(locations, "locations").unwrap();
        assert_eq!(rows.len(), 6);
        for ((d6, armour, name), loc) in rows.iter().zip(&encoded) {
            assert_eq!(
                (*armour, name.replace(' ', "_")),
                (loc.armour, loc.name.clone()),
                "D6 {d6}"
            );
        }
    }

    /// "| Ork Trukk | ... | Thrust Number | Score Required (D6) | 1 | 2+ |
    /// 2 | 3+ | 3+ | 4+ |".
    #[test]
    fn the_trukk_thrust_table_is_the_seeds() {
        if !available(SEED) {
            return;
        }
        let cells = table_cells(
            SEED,
            "| Ork Trukk |\n|\n|---|---|\n| Thrust Number |",
            "As you can see",
        );
        let at = cells
            .iter()
            .position(|c| c == "Score Required (D6)")
            .unwrap();
        let scores: Vec<String> = cells[at + 1..].chunks(2).map(|r| r[1].clone()).collect();
        assert_eq!(scores, ["2+", "3+", "4+"]);
        let preset = PRESETS.iter().find(|p| p.name == "ork_trukk").unwrap();
        let thrust = preset.sets.iter().find(|(k, _)| *k == "thrust").unwrap().1;
        assert_eq!(
            parse_thrust(thrust, "thrust").unwrap(),
            scores
                .iter()
                .map(|s| s.trim_end_matches('+').parse::<u8>().unwrap())
                .collect::<Vec<_>>()
        );
    }

    /// A two-column "score | result" table's rows, after its "Result" header.
    fn rows_after_result(cells: Vec<String>) -> Vec<(String, String)> {
        let at = cells.iter().position(|c| c == "Result").unwrap();
        cells[at + 1..]
            .chunks(2)
            .map(|r| (r[0].clone(), r[1].clone()))
            .collect()
    }

    /// The Thruster Buster Table's four rows, by the words that open them.
    #[test]
    fn the_thruster_buster_table_is_the_seeds() {
        if !available(SEED) {
            return;
        }
        let rows = rows_after_result(table_cells(
            SEED,
            "| Thruster Buster Table |",
            "Once a Vehicle has done",
        ));
        let want = [
            ("1", "Spin", Buster::Spin),
            ("2", "D6” forward and Spin", Buster::ForwardAndSpin),
            ("3", "Swerve and move D6” forward", Buster::Swerve),
            ("4+", "D6” forward", Buster::Forward),
        ];
        assert_eq!(rows.len(), want.len());
        for ((score, text), (s, opens, b)) in rows.iter().zip(want) {
            assert_eq!(*score, s);
            assert!(text.starts_with(opens), "{text}");
            let d6: u32 = s.trim_end_matches('+').parse().unwrap();
            assert_eq!(thruster_buster(d6), b);
        }
        assert_eq!(thruster_buster(6), Buster::Forward);
    }

    /// "For each Penetrating Hit on the Gate roll a D6: | 1 - 2 | ... | 3 |
    /// Something shifted! ... | 4 | There’s a gap! ... | 5 | Carnage! ... |
    /// 6 | Off the hinges!"
    #[test]
    fn the_gate_table_is_the_seeds() {
        if !available(SEED) {
            return;
        }
        let rows = rows_after_result(table_cells(
            SEED,
            "For each Penetrating Hit on the Gate roll a D6:",
            "Shooting\nEach turn",
        ));
        let want = [
            ("1 - 2", "Some of the decorative trim", GateResult::Trim),
            ("3", "Something shifted!", GateResult::Shifted),
            ("4", "There’s a gap!", GateResult::Gap),
            ("5", "Carnage!", GateResult::Carnage),
            ("6", "Off the hinges!", GateResult::OffTheHinges),
        ];
        assert_eq!(rows.len(), want.len());
        for ((score, text), (s, opens, r)) in rows.iter().zip(want) {
            assert_eq!(*score, s);
            assert!(text.starts_with(opens), "{text}");
            let first: u32 = s.split(' ').next().unwrap().parse().unwrap();
            assert_eq!(gate_table(first), r);
        }
        // "It is the weakest point of the Fort and has a default Armour Value of 9."
        let text = crate::systems::seed_text::seed(SEED);
        let at = text.find("has a default Armour Value of ").unwrap();
        let armour = &text[at + "has a default Armour Value of ".len()..][..1];
        let decl = <super::params::gate::GateParams as crate::systems::ParamGroup>::decls()
            .into_iter()
            .find(|d| d.name == "armour")
            .unwrap();
        assert_eq!(decl.need_text(), format!("default {armour}"));
    }

    /// The prose rules the ram, boarding, fire and movement code quote,
    /// found word for word in the seed: the small/large cases of
    /// `rams::damage` and the numbers the scenarios use.
    #[test]
    fn the_quoted_vehicle_rules_are_the_seeds() {
        if !available(SEED) {
            return;
        }
        let text = crate::systems::seed_text::seed(SEED).replace('\n', " ");
        for quote in [
            "Roll a D3 for each Vehicle to determine how much Damage each takes",
            "larger Vehicles only take D3 -1 Damage from the impact",
            "On a 4+ the Vehicle takes 1 point of Damage and Krunches away",
            "Larger Vehicles cannot be damaged by sideswipes from Small Vehicles",
            "Ramming into the rear of an enemy Vehicle does no Damage to the Rammer and 1 point of Damage to the Rammed Vehicle",
            "A small Vehicle shunting a larger Vehicle won’t inflict any Damage but will inflict a point of Damage against another small Vehicle",
            "if a small Vehicle is shunted by a larger Vehicle it will take D3 Damage",
            "A Vehicle Ramming the side of another takes 1 point of Damage and inflicts D3 points of Damage to its Target",
            "Small Vehicles inflict no Damage on larger Vehicles if they T-bone them and larger Vehicles take no Damage when T-boning small Vehicles",
            "Small Vehicles take D3 points of Damage if T-boned and take 1 point of Damage if they T-bone an enemy small Vehicle",
            "they do D6 Damage to both the Rammer and the Rammed enemy Vehicle",
            "on a 4+ that Vehicle is Immobilised",
            "a Large Vehicle Ramming them Head-On will only take 1 point of Damage",
            "Both Vehicles take D6 Damage. Roll an additional D6 for each Vehicle - on a 4+ that Vehicle is Immobilised",
            "Larger Vehicles hitting small Vehicles take only 1 point of Damage and don’t have to roll for Immobilisation",
            "The Vehicles take 1 Damage each. Small Vehicles that are Hit by a larger Vehicle take D3 Damage",
            "Both Vehicles take 1 point of Damage. Larger Vehicles hitting small Vehicles take no Damage",
            "The Vehicle takes D3 Damage. Roll an additional D6 for the Vehicle - on a 4+ it is Immobilised",
            "roll a D6 - on a 4+ the Vehicle takes 1 point of Damage",
            "on a 1-3 they scraped nothing more than paint, on a 4+ resolve a Collision",
            "- 1-2 Swerve Left - 3-4 Straight On - 5-6 Swerve Right",
            "A Full Hit inflicts D3 Hits on a Vehicle",
            "Roll a D6 - on a 4+ the Vehicle takes a single Hit",
            "On a 1 - 5 it takes a S4 Hit. On a 6 the Fire goes out",
            "Each Warrior helping to put out the Fire Modifies the dice roll above by +1",
            "will succeed on a D6 result of 4+",
            "they must roll 4+ on a D6. If they fail they will take a Strength 3 Hit",
            "If they fail to avoid the Vehicle they take a S3 Hit",
            "Place the loser 2” behind the Vehicle and take a S3 Hit",
            "Each “helping” Warrior adds +1 to the lead Warrior’s combat score and +1 Attack Dice",
            "the Warrior receives a bonus D6 to Penetrate Armour",
            "the Gate only takes D3 Damage if it’s a large Vehicle and 1 Damage if it is a Small Vehicle",
        ] {
            assert!(text.contains(quote), "the seed does not say: {quote}");
        }
    }
}

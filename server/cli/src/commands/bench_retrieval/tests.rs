//! The labelled questions' integrity and the scoring of an order.

use super::*;
use vai_providers::local::sample;

/// The labels name documents that exist, in the question's collection; every question has
/// a split (parsing fails without one), both splits ask about every collection, and the
/// held-out half is at least 50 questions: a typo would silently score as a miss.
#[test]
fn every_label_is_a_document_of_its_collection_and_every_question_has_a_split() {
    let labelled: Labelled = serde_json::from_str(QUESTIONS).unwrap();
    let in_split = |s: Split| labelled.questions.iter().filter(move |q| q.split == s);
    assert_eq!(in_split(Split::Tuning).count(), 100);
    assert!(in_split(Split::Heldout).count() >= 50);
    for split in Split::ALL {
        for collection in sample::SAMPLE_COLLECTIONS {
            let asked = in_split(split)
                .filter(|q| q.collection == *collection)
                .count();
            assert!(asked >= 10, "{split:?} {collection}: {asked} questions");
        }
    }
    let mut seen = std::collections::HashSet::new();
    for q in &labelled.questions {
        assert!(seen.insert(q.question.as_str()), "twice: {}", q.question);
        assert!((1..=3).contains(&q.relevant.len()), "{}", q.question);
        for slug in &q.relevant {
            assert!(
                DOCS.iter()
                    .any(|d| d.collection == q.collection && d.slug == slug),
                "{:?}: no document {}/{slug}",
                q.question,
                q.collection
            );
        }
    }
}

#[test]
fn a_question_without_a_split_does_not_parse() {
    let missing =
        r#"{"questions": [{"question": "q", "collection": "api_docs", "relevant": ["overview"]}]}"#;
    assert!(serde_json::from_str::<Labelled>(missing).is_err());
}

#[test]
fn figures_count_the_first_relevant_document_per_split() {
    let mut o = Outcomes::default();
    let ranked = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let relevant = ranked(&["b", "z"]);
    let ms = Duration::from_millis;
    o.add(Split::Tuning, &ranked(&["b", "a"]), &relevant, ms(1));
    o.add(Split::Tuning, &ranked(&["a", "c", "z"]), &relevant, ms(3));
    o.add(Split::Heldout, &ranked(&["a", "c", "d"]), &relevant, ms(5));
    let all = o.figures(None);
    assert_eq!(all["questions"], 3);
    assert!((all["hit1"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    assert!((all["hit3"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    assert!((all["mrr10"].as_f64().unwrap() - (1.0 + 1.0 / 3.0) / 3.0).abs() < 1e-9);
    assert_eq!(all["totalMs"], 9.0);
    let tuning = o.figures(Some(Split::Tuning));
    assert_eq!(tuning["questions"], 2);
    assert!((tuning["mrr10"].as_f64().unwrap() - (1.0 + 1.0 / 3.0) / 2.0).abs() < 1e-9);
    assert_eq!(o.figures(Some(Split::Heldout))["mrr10"], 0.0);
}

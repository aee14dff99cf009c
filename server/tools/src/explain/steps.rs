//! "What is happening here": what a step of each tool is doing in a RAG pipeline, in a few plain
//! sentences for a workshop audience, grouped by the topic that says more. The playground's
//! inspector shows a step's note; `vai explain <topic>` lists the topic's notes.

/// What a step of one tool is doing in a RAG pipeline: two to four plain sentences for a
/// workshop audience. It belongs to the topic that says more.
#[derive(Debug)]
pub struct StepNote {
    pub tool: &'static str,
    pub text: &'static str,
}

pub(super) const EMBEDDINGS: &[StepNote] = &[StepNote {
    tool: "embed",
    text: "This step turns a piece of text into an embedding: a list of numbers that stands for \
           what the text means. Texts with similar meaning get similar numbers, which is how a \
           computer finds related passages without matching exact words. In a RAG pipeline the \
           same model embeds your documents once and every question as it arrives, so the two \
           can be compared.",
}];

pub(super) const SIMILARITY: &[StepNote] = &[StepNote {
    tool: "similarity",
    text: "This step embeds two texts with the same model and measures how closely their vectors \
           point the same way (cosine similarity). A score near 1 means the texts say nearly the \
           same thing; unrelated texts score lower, though rarely zero. It is handy for spotting \
           duplicates before ingesting, or for checking that an answer stays close to its source.",
}];

pub(super) const VECTOR_SEARCH: &[StepNote] = &[
    StepNote {
        tool: "search",
        text: "This step turns the question into an embedding and asks the vector index for the \
               stored chunks whose embeddings are closest to it. That is how RAG finds passages \
               that mean the same as the question even when they use other words. Results come \
               back in vector-score order with no second opinion: add a rerank step for that.",
    },
    StepNote {
        tool: "query",
        text: "This step does the whole retrieval half of RAG at once: it embeds the question, \
               runs a vector search for the nearest chunks, then (unless rerank is off) reranks \
               them with a model that reads the question and each chunk together. It is an embed, a search and a rerank \
               step in one. Each result's score is the reranker's relevance score; the vector \
               search score is kept as vectorScore.",
    },
    StepNote {
        tool: "collections",
        text: "This step lists the collections of a database with their document counts and \
               whether each has a vector index. A collection needs a vector index before search \
               and query steps can find anything in it; the ingest step creates one on first use.",
    },
    StepNote {
        tool: "aggregate",
        text: "This step runs a MongoDB aggregation pipeline — a list of stages that match, group \
               or reshape documents — directly on the collection. Vector search is itself one such \
               stage ($vectorSearch), so this is where you go beyond the ready-made search steps. \
               Stages that write are refused unless the step allows them.",
    },
];

pub(super) const RERANKING: &[StepNote] = &[StepNote {
    tool: "rerank",
    text: "This step gives the search results a second, more careful read. A reranking model \
           looks at the question and each candidate passage together, scores how well the passage \
           actually answers it, and puts the best first. Vector search is fast but approximate; \
           reranking a short list is slower but catches what embeddings miss, so the best \
           passages reach the prompt.",
}];

pub(super) const RAG: &[StepNote] = &[
    StepNote {
        tool: "merge",
        text: "This step joins the result lists of earlier steps into one — for example the hits \
               of two collections searched side by side — and can drop duplicates. The output of a \
               skipped step is simply left out. A merged list is often reranked next, because \
               scores from different searches are not directly comparable.",
    },
    StepNote {
        tool: "filter",
        text: "This step keeps only the items that pass a test, such as results whose score is \
               above a threshold. In a RAG pipeline that means weak or off-topic passages never \
               reach the prompt, where they would only distract the model. The test is an \
               expression that sees each element as item.",
    },
    StepNote {
        tool: "generate",
        text: "This is the generation half of RAG: the step sends a prompt to a language model \
               together with the retrieved passages, numbered as sources. The model writes its \
               answer from those passages, so it can cite them and should say when they do not \
               hold the answer. When an answer is wrong, look at the retrieval steps first: the \
               model can only use what reached its prompt.",
    },
    StepNote {
        tool: "evaluator",
        text: "This step asks a language model to grade a piece of content, such as an answer, \
               on named metrics like grounding or relevance, each a score in a fixed range. The \
               scores come back as structured output, so later steps can act on them, for \
               example flagging an answer for review. A small offline model gives valid numbers \
               but poor judgements.",
    },
];

pub(super) const CHUNKING: &[StepNote] = &[
    StepNote {
        tool: "chunk",
        text: "This step cuts a long text into smaller pieces, or chunks, ending each at a natural \
               break such as a paragraph or a sentence where it can. Small, focused chunks give \
               sharper embeddings and let a RAG pipeline hand the model just the relevant \
               passages. Nothing is embedded or stored yet: the ingest step does that, with the \
               same chunker.",
    },
    StepNote {
        tool: "ingest",
        text: "This step loads knowledge into a collection ahead of any question: it splits the \
               text into chunks, embeds each chunk as a document, and stores text, embedding and \
               metadata together. It also makes sure the collection has the vector index that \
               search and query steps use. Search it later with the embedding model that ingested \
               it.",
    },
];

pub(super) const TEMPLATES: &[StepNote] = &[
    StepNote {
        tool: "template",
        text: "This step fills the {{ }} placeholders of a text with values from the workflow's \
               inputs and earlier steps. In a RAG pipeline it is often where the prompt is built: \
               the question plus the passages retrieval found. No model is called; the output is \
               exactly the text the next step receives.",
    },
    StepNote {
        tool: "transform",
        text: "This step reshapes each item of a list: it keeps some fields, renames them, or \
               builds new ones from a template. In a RAG pipeline it typically trims search \
               results down to the text and source the next step needs, which keeps prompts \
               short. No model is involved; it is plain data handling.",
    },
];

pub(super) const WORKFLOWS: &[StepNote] = &[
    StepNote {
        tool: "conditional",
        text: "This step makes a decision: it evaluates a condition, then runs one list of steps \
               and skips the other. In a RAG pipeline it often sets up a fallback, such as a \
               broader search when the first one found nothing.",
    },
    StepNote {
        tool: "router",
        text: "This step picks one of several routes for a text, such as sending a billing \
               question to the billing documents and a technical one to the runbooks. A \
               language model chooses, or offline the route whose description means the most \
               similar thing. The steps of the other routes are skipped.",
    },
    StepNote {
        tool: "loop",
        text: "This step repeats one inner step for every item of a list, for example ingesting \
               several documents or searching several collections. Each item's result is \
               collected, and a failing item is recorded without stopping the others.",
    },
    StepNote {
        tool: "http",
        text: "This step sends one web request and hands on the reply. In a RAG pipeline it can \
               fetch a page to chunk and ingest, or bring in facts from another service. Only \
               public addresses are reached unless the workflow's settings allow others.",
    },
];

pub(super) const COST: &[StepNote] = &[StepNote {
    tool: "estimate",
    text: "This step works out what embedding a set of documents and answering queries would cost \
           at a model's list price. Nothing is sent to a provider: it is arithmetic on assumed \
           token counts, so treat the result as a rough budget.",
}];

pub(super) const MODELS: &[StepNote] = &[StepNote {
    tool: "models",
    text: "This step lists the embedding and reranking models vai knows, with their dimensions \
           and prices, from a catalog built into vai; no provider is called. Use it to choose a \
           model, remembering that a collection is searched with the model (or model family) \
           that embedded it.",
}];

#[cfg(test)]
mod tests {
    use crate::explain::{TOPICS, find, step_note};

    #[test]
    fn every_kind_of_step_has_a_note_naming_a_topic_vai_explain_finds() {
        for tool in [
            "embed",
            "search",
            "query",
            "rerank",
            "merge",
            "filter",
            "transform",
            "generate",
            "ingest",
            "chunk",
            "similarity",
        ] {
            let (topic, _) = step_note(tool).unwrap_or_else(|| panic!("{tool} has no note"));
            // The inspector says "vai explain <key>": that must land on this topic.
            assert!(
                find(topic.key).is_some_and(|t| std::ptr::eq(t, topic)),
                "{tool}: {}",
                topic.key
            );
        }
        assert!(step_note("nope").is_none());
    }

    #[test]
    fn notes_are_short_plain_and_one_per_registered_tool() {
        let registry = crate::unconfigured_registry();
        let mut seen = std::collections::HashSet::new();
        for t in TOPICS {
            for n in t.steps {
                assert!(
                    registry.spec(n.tool).is_some(),
                    "{}: no tool {}",
                    t.key,
                    n.tool
                );
                assert!(seen.insert(n.tool), "{} has two notes", n.tool);
                // `vai explain <tool>` opens the topic that holds the tool's note.
                assert!(
                    find(n.tool).is_some_and(|f| std::ptr::eq(f, t)),
                    "{} finds {:?}, not {}",
                    n.tool,
                    find(n.tool).map(|f| f.key),
                    t.key
                );
                let words = n.text.split_whitespace().count();
                let sentences = n.text.matches(". ").count() + 1;
                assert!((25..=80).contains(&words), "{}: {words} words", n.tool);
                assert!(
                    (2..=4).contains(&sentences),
                    "{}: {sentences} sentences",
                    n.tool
                );
                assert!(
                    n.text.ends_with('.') && !n.text.contains('\u{1b}'),
                    "{}",
                    n.tool
                );
            }
        }
    }
}

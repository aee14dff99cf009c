//! A scripted MongoDB wire-protocol (OP_MSG) server on 127.0.0.1 for tests: it answers the
//! driver's handshake as a standalone server without sessions, records every other command and
//! answers each with whatever the test's handler returns. It is not a database: it lets tests
//! check what the store sends and how it reads the replies a real server would give.
//! Other crates' tests reach it with the `fakes` feature.

use mongodb::bson::{Bson, DateTime, Document, doc};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const OP_MSG: i32 = 2013;
const CHECKSUM_PRESENT: u32 = 1;

type Handler = dyn Fn(&str, &Document) -> Document + Send + Sync;

pub struct FakeMongo {
    /// A connection string for this server, unique to it.
    pub uri: String,
    commands: Arc<Mutex<Vec<Document>>>,
}

impl FakeMongo {
    /// Serve on a free port; `handler(command_name, body)` answers every command but the
    /// handshake. Document sequences (an insert's `documents`) are folded into the body as arrays.
    pub async fn start(
        handler: impl Fn(&str, &Document) -> Document + Send + Sync + 'static,
    ) -> FakeMongo {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let handler: Arc<Handler> = Arc::new(handler);
        let commands = Arc::new(Mutex::new(Vec::new()));
        let recorded = commands.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, handler.clone(), recorded.clone()));
            }
        });
        FakeMongo {
            uri: format!(
                "mongodb://{addr}/?directConnection=true&serverSelectionTimeoutMS=2000&appName=fake-{}",
                addr.port()
            ),
            commands,
        }
    }

    /// Every command received but the handshake, in order.
    pub fn commands(&self) -> Vec<Document> {
        self.commands.lock().expect("commands").clone()
    }

    /// The names of those commands, with an aggregate's first stage (`aggregate $vectorSearch`).
    pub fn command_names(&self) -> Vec<String> {
        self.commands()
            .iter()
            .map(|c| {
                let name = c.keys().next().cloned().unwrap_or_default();
                match first_stage(c) {
                    Some(stage) => format!("{name} {stage}"),
                    None => name,
                }
            })
            .collect()
    }
}

/// The operator of an aggregate command's first stage.
pub fn first_stage(command: &Document) -> Option<String> {
    let stage = command.get_array("pipeline").ok()?.first()?.as_document()?;
    stage.keys().next().cloned()
}

/// A command's reply carrying `docs` as an exhausted cursor.
pub fn cursor(docs: Vec<Document>) -> Document {
    doc! {"cursor": {"id": 0_i64, "ns": "db.coll", "firstBatch": docs}, "ok": 1}
}

/// A command error reply.
pub fn command_error(code: i32, code_name: &str, message: &str) -> Document {
    doc! {"ok": 0, "code": code, "codeName": code_name, "errmsg": message}
}

fn hello() -> Document {
    doc! {
        "helloOk": true,
        "isWritablePrimary": true,
        "ismaster": true,
        "maxBsonObjectSize": 16_777_216,
        "maxMessageSizeBytes": 48_000_000,
        "maxWriteBatchSize": 100_000,
        "localTime": DateTime::now(),
        "connectionId": 1,
        "minWireVersion": 0,
        "maxWireVersion": 21,
        "readOnly": false,
        "ok": 1,
    }
}

async fn serve(
    mut stream: TcpStream,
    handler: Arc<Handler>,
    commands: Arc<Mutex<Vec<Document>>>,
) -> std::io::Result<()> {
    let mut next_id = 1_i32;
    loop {
        let mut header = [0_u8; 16];
        stream.read_exact(&mut header).await?;
        let word = |i: usize| i32::from_le_bytes(header[i..i + 4].try_into().expect("4 bytes"));
        let (length, request_id, op_code) = (word(0), word(4), word(12));
        assert_eq!(op_code, OP_MSG, "the fake only speaks OP_MSG");
        let mut message = vec![0_u8; length as usize - header.len()];
        stream.read_exact(&mut message).await?;
        let body = parse_op_msg(&message);
        let name = body.keys().next().cloned().unwrap_or_default();
        let reply = match name.as_str() {
            "hello" | "isMaster" | "ismaster" => hello(),
            "ping" | "endSessions" | "killCursors" => doc! {"ok": 1},
            _ => {
                commands.lock().expect("commands").push(body.clone());
                handler(&name, &body)
            }
        };
        let mut bytes = Vec::new();
        reply.to_writer(&mut bytes).expect("encode reply");
        let total = 16 + 4 + 1 + bytes.len();
        let mut out = Vec::with_capacity(total);
        for field in [total as i32, next_id, request_id, OP_MSG] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&0_u32.to_le_bytes());
        out.push(0);
        out.extend_from_slice(&bytes);
        next_id += 1;
        stream.write_all(&out).await?;
    }
}

/// The command of an OP_MSG (after the header): the kind-0 body with kind-1 sequences folded in.
fn parse_op_msg(message: &[u8]) -> Document {
    let flags = u32::from_le_bytes(message[..4].try_into().expect("4 bytes"));
    let end = message.len() - if flags & CHECKSUM_PRESENT != 0 { 4 } else { 0 };
    let size_at =
        |i: usize| i32::from_le_bytes(message[i..i + 4].try_into().expect("4 bytes")) as usize;
    let mut body = Document::new();
    let mut sequences = Vec::new();
    let mut at = 4;
    while at < end {
        let kind = message[at];
        at += 1;
        let size = size_at(at);
        match kind {
            0 => body = Document::from_reader(&message[at..at + size]).expect("body"),
            1 => {
                let section = &message[at + 4..at + size];
                let nul = section.iter().position(|b| *b == 0).expect("identifier");
                let identifier = String::from_utf8_lossy(&section[..nul]).into_owned();
                let mut docs = Vec::new();
                let mut rest = &section[nul + 1..];
                while !rest.is_empty() {
                    let len = i32::from_le_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
                    docs.push(Bson::Document(
                        Document::from_reader(&rest[..len]).expect("sequence document"),
                    ));
                    rest = &rest[len..];
                }
                sequences.push((identifier, docs));
            }
            other => panic!("unknown OP_MSG section kind {other}"),
        }
        at += size;
    }
    for (identifier, docs) in sequences {
        body.insert(identifier, docs);
    }
    body
}

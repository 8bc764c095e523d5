//! The statement layer of the SQLite engine: `query`, `query_scalar`, `QueryBuilder` and rows
//! shaped like sqlx's, run by `rusqlite` on the calling thread with cached prepared statements.
//!
//! The areas' SQL (`<area>_sql.rs`) is written once and compiled against each backend: against
//! sqlx for PostgreSQL, against this layer for SQLite. Each call runs synchronously on the
//! connection the unit of work holds (its futures are ready when first polled), so a unit of
//! work costs no thread handoff per statement, where sqlx's SQLite driver costs two.

use rusqlite::types::{FromSql, ToSql, Value, ValueRef};
use std::cell::Cell;
use std::collections::HashMap;
use std::fmt::Display;
use std::marker::PhantomData;
use std::sync::Arc;

/// Prepared statements each connection keeps: every distinct statement the areas run, with
/// room for the filter combinations the lists build.
const STATEMENT_CACHE: usize = 512;

/// A SQLite connection of the engine, held by one unit of work at a time.
#[derive(Debug)]
pub(super) struct LiteConn {
    conn: rusqlite::Connection,
    /// The column names of each statement that returned rows, by its SQL: every row shares them,
    /// and a statement's next run needs no new copy.
    columns: HashMap<String, Arc<[String]>>,
}

impl LiteConn {
    pub(crate) fn new(conn: rusqlite::Connection) -> Self {
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        LiteConn { conn, columns: HashMap::new() }
    }

    pub(crate) fn raw(&self) -> &rusqlite::Connection {
        &self.conn
    }
}

/// Where a statement runs: a unit of work's connection, or any idle reader.
pub(super) trait Exec<'e> {
    fn run<R>(self, f: impl FnOnce(&mut LiteConn) -> rusqlite::Result<R>) -> rusqlite::Result<R>;
}

impl<'e> Exec<'e> for &'e mut LiteConn {
    fn run<R>(self, f: impl FnOnce(&mut LiteConn) -> rusqlite::Result<R>) -> rusqlite::Result<R> {
        f(self)
    }
}

/// What a statement changed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Done(u64);

impl Done {
    pub(super) fn rows_affected(&self) -> u64 {
        self.0
    }
}

/// A result row: its values, read by column name or position like sqlx's `Row::try_get`.
#[derive(Debug)]
pub(super) struct LiteRow {
    columns: Arc<[String]>,
    values: Vec<Value>,
    /// The column after the last one read by name: the areas read a row's columns mostly in
    /// the order they select them, so the name is checked there before the list is searched.
    next: Cell<usize>,
}

/// A column named or numbered.
pub(super) trait ColumnIndex {
    /// Its position among `columns`; `likely` is where a name is looked for first.
    fn index_in(&self, columns: &[String], likely: usize) -> rusqlite::Result<usize>;
}

impl ColumnIndex for &str {
    fn index_in(&self, columns: &[String], likely: usize) -> rusqlite::Result<usize> {
        if columns.get(likely).is_some_and(|c| c == self) {
            return Ok(likely);
        }
        columns.iter().position(|c| c == self).ok_or_else(|| rusqlite::Error::InvalidColumnName((*self).to_owned()))
    }
}

impl ColumnIndex for usize {
    fn index_in(&self, columns: &[String], _likely: usize) -> rusqlite::Result<usize> {
        if *self < columns.len() { Ok(*self) } else { Err(rusqlite::Error::InvalidColumnIndex(*self)) }
    }
}

impl LiteRow {
    pub(super) fn try_get<T: FromSql, I: ColumnIndex>(&self, column: I) -> rusqlite::Result<T> {
        let index = column.index_in(&self.columns, self.next.get())?;
        self.next.set(index + 1);
        let value = self.values.get(index).ok_or(rusqlite::Error::InvalidColumnIndex(index))?;
        T::column_result(ValueRef::from(value)).map_err(|e| match e {
            rusqlite::types::FromSqlError::InvalidType => {
                rusqlite::Error::InvalidColumnType(index, self.columns[index].clone(), value.data_type())
            }
            other => rusqlite::Error::FromSqlConversionFailure(index, value.data_type(), Box::new(other)),
        })
    }
}

/// One statement and its arguments, as `sqlx::query` builds it.
#[derive(Debug)]
pub(super) struct Query<'q> {
    sql: &'q str,
    args: Vec<Value>,
    /// Whether the placeholders are `?1, ?2, ...` in the order of the arguments (a builder's),
    /// so they bind by position: asking SQLite for each placeholder's name scans its list of
    /// names, which is quadratic in a multi-row insert's thousands of arguments.
    in_order: bool,
    /// The first argument that could not be converted: reported when the statement runs.
    bad_arg: Option<rusqlite::Error>,
}

pub(super) fn query(sql: &str) -> Query<'_> {
    Query { sql, args: Vec::new(), in_order: false, bad_arg: None }
}

/// Statements kept column names for at most, per connection.
const COLUMN_LISTS: usize = 1024;

/// The column names of the statement being run, from the connection's memory of them.
struct Columns<'c> {
    sql: &'c str,
    known: &'c mut HashMap<String, Arc<[String]>>,
}

impl Columns<'_> {
    fn of(&mut self, stmt: &rusqlite::Statement<'_>) -> Arc<[String]> {
        if let Some(names) = self.known.get(self.sql) {
            return names.clone();
        }
        if self.known.len() >= COLUMN_LISTS {
            self.known.clear();
        }
        let names: Arc<[String]> = stmt.column_names().into_iter().map(str::to_owned).collect();
        self.known.insert(self.sql.to_owned(), names.clone());
        names
    }
}

/// A statement whose answer is its first column, as `sqlx::query_scalar` builds it.
#[derive(Debug)]
pub(super) struct Scalar<'q, O> {
    inner: Query<'q>,
    out: PhantomData<fn() -> O>,
}

pub(super) fn query_scalar<O>(sql: &str) -> Scalar<'_, O> {
    Scalar { inner: query(sql), out: PhantomData }
}

fn owned(value: &dyn ToSql) -> rusqlite::Result<Value> {
    use rusqlite::types::ToSqlOutput;
    Ok(match value.to_sql()? {
        ToSqlOutput::Borrowed(v) => v.into(),
        ToSqlOutput::Owned(v) => v,
        other => {
            return Err(rusqlite::Error::ToSqlConversionFailure(format!("unsupported argument {other:?}").into()));
        }
    })
}

impl<'q> Query<'q> {
    pub(super) fn bind<T: ToSql>(mut self, value: T) -> Self {
        self.push_arg(&value);
        self
    }

    fn push_arg(&mut self, value: &dyn ToSql) {
        match owned(value) {
            Ok(v) => self.args.push(v),
            Err(e) => {
                self.args.push(Value::Null);
                self.bad_arg.get_or_insert(e);
            }
        }
    }

    /// Prepares (or takes from the cache) the statement, binds the arguments by the number in
    /// each `$N` / `?N` placeholder (a bare `?` takes the next one), and hands it to `run`.
    fn run<'e, R>(
        self,
        ex: impl Exec<'e>,
        run: impl FnOnce(&mut Columns<'_>, &rusqlite::Connection, &mut rusqlite::Statement<'_>) -> rusqlite::Result<R>,
    ) -> rusqlite::Result<R> {
        if let Some(e) = self.bad_arg {
            return Err(e);
        }
        ex.run(|lite| {
            let LiteConn { conn, columns } = lite;
            let mut columns = Columns { sql: self.sql, known: columns };
            let mut stmt = conn.prepare_cached(self.sql)?;
            if self.in_order {
                if stmt.parameter_count() != self.args.len() {
                    return Err(rusqlite::Error::InvalidParameterCount(self.args.len(), stmt.parameter_count()));
                }
                for (i, value) in self.args.iter().enumerate() {
                    stmt.raw_bind_parameter(i + 1, value)?;
                }
                return run(&mut columns, conn, &mut stmt);
            }
            let mut next = 0;
            for param in 1..=stmt.parameter_count() {
                let number = stmt
                    .parameter_name(param)
                    .and_then(|name| name.strip_prefix('$').or_else(|| name.strip_prefix('?')))
                    .and_then(|n| n.parse::<usize>().ok());
                let index = match number {
                    Some(n) => n.saturating_sub(1),
                    None => {
                        next += 1;
                        next - 1
                    }
                };
                let value =
                    self.args.get(index).ok_or(rusqlite::Error::InvalidParameterCount(index + 1, self.args.len()))?;
                stmt.raw_bind_parameter(param, value)?;
            }
            run(&mut columns, conn, &mut stmt)
        })
    }

    fn read_all<'e>(self, ex: impl Exec<'e>, limit: usize) -> rusqlite::Result<Vec<LiteRow>> {
        self.run(ex, |columns, _, stmt| {
            let columns = columns.of(stmt);
            let width = columns.len();
            let mut rows = stmt.raw_query();
            let mut out = Vec::new();
            while out.len() < limit {
                let Some(row) = rows.next()? else { break };
                let values = (0..width).map(|i| row.get_ref(i).map(Value::from)).collect::<Result<_, _>>()?;
                out.push(LiteRow { columns: columns.clone(), values, next: Cell::new(0) });
            }
            Ok(out)
        })
    }

    pub(super) async fn execute<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<Done> {
        self.run(ex, |_, conn, stmt| {
            // Stepping to the end runs the statement whether or not it returns rows (RETURNING).
            let mut rows = stmt.raw_query();
            while rows.next()?.is_some() {}
            Ok(Done(conn.changes()))
        })
    }

    pub(super) async fn fetch_all<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<Vec<LiteRow>> {
        self.read_all(ex, usize::MAX)
    }

    pub(super) async fn fetch_optional<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<Option<LiteRow>> {
        Ok(self.read_all(ex, 1)?.pop())
    }

    pub(super) async fn fetch_one<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<LiteRow> {
        self.read_all(ex, 1)?.pop().ok_or(rusqlite::Error::QueryReturnedNoRows)
    }
}

impl<'q, O: FromSql> Scalar<'q, O> {
    pub(super) fn bind<T: ToSql>(mut self, value: T) -> Self {
        self.inner.push_arg(&value);
        self
    }

    pub(super) async fn fetch_all<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<Vec<O>> {
        self.inner.read_all(ex, usize::MAX)?.iter().map(|row| row.try_get(0)).collect()
    }

    pub(super) async fn fetch_optional<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<Option<O>> {
        self.inner.read_all(ex, 1)?.first().map(|row| row.try_get(0)).transpose()
    }

    pub(super) async fn fetch_one<'e>(self, ex: impl Exec<'e>) -> rusqlite::Result<O> {
        self.fetch_optional(ex).await?.ok_or(rusqlite::Error::QueryReturnedNoRows)
    }
}

/// A statement assembled piece by piece, as `sqlx::QueryBuilder` does: text, and arguments
/// whose placeholders (`?N`) it writes itself.
#[derive(Debug)]
pub(super) struct QueryBuilder<'a> {
    sql: String,
    args: Query<'static>,
    lifetime: PhantomData<&'a ()>,
}

impl<'a> QueryBuilder<'a> {
    pub(super) fn new(start: impl Into<String>) -> Self {
        QueryBuilder { sql: start.into(), args: query(""), lifetime: PhantomData }
    }

    pub(super) fn push(&mut self, text: impl Display) -> &mut Self {
        use std::fmt::Write;
        let _ = write!(self.sql, "{text}");
        self
    }

    pub(super) fn push_bind<T: ToSql>(&mut self, value: T) -> &mut Self {
        self.args.push_arg(&value);
        let n = self.args.args.len();
        self.push(format_args!("?{n}"))
    }

    pub(super) fn separated(&mut self, separator: &'static str) -> Separated<'_, 'a> {
        Separated { builder: self, separator, first: true }
    }

    /// ` VALUES (..), (..)`: one parenthesised tuple per item, filled by `tuple`.
    pub(super) fn push_values<I: IntoIterator>(&mut self, items: I, mut tuple: impl FnMut(Separated<'_, 'a>, I::Item)) {
        self.push(" VALUES ");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.push("(");
            tuple(self.separated(", "), item);
            self.push(")");
        }
    }

    pub(super) fn build(&mut self) -> Query<'_> {
        let args = std::mem::replace(&mut self.args, query(""));
        Query { sql: &self.sql, args: args.args, in_order: true, bad_arg: args.bad_arg }
    }

    pub(super) fn build_query_scalar<O>(&mut self) -> Scalar<'_, O> {
        Scalar { inner: self.build(), out: PhantomData }
    }
}

/// Pieces of a builder joined by a separator, as sqlx's `Separated`.
#[derive(Debug)]
pub(super) struct Separated<'b, 'a> {
    builder: &'b mut QueryBuilder<'a>,
    separator: &'static str,
    first: bool,
}

impl Separated<'_, '_> {
    fn separate(&mut self) {
        if !self.first {
            self.builder.push(self.separator);
        }
        self.first = false;
    }

    pub(super) fn push_bind<T: ToSql>(&mut self, value: T) -> &mut Self {
        self.separate();
        self.builder.push_bind(value);
        self
    }
}

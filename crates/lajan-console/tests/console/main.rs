//! The console through the real router, as a browser uses it, on SQLite and (when configured)
//! PostgreSQL: sessions, pages, forms, approvals, admin pages, languages.

#[macro_use]
extern crate lajan_testkit;

mod approvals;
mod browser;
mod clients;
mod forms;
mod invoices;
mod keys;
mod languages;
mod numbers;
mod pages;
mod receivers;
mod sessions;
mod statements;
mod webhooks;
mod words;

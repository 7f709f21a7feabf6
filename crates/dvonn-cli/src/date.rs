//! Today's date for the `Date` tag of game records.

/// Today's date (UTC) as game records write it: `2026.11.29`.
pub(crate) fn today() -> String {
    let date = time::OffsetDateTime::now_utc().date();
    format!("{:04}.{:02}.{:02}", date.year(), u8::from(date.month()), date.day())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_date_has_the_record_layout() {
        let date = super::today();
        let parts: Vec<&str> = date.split('.').collect();
        assert_eq!(parts.len(), 3, "{date}");
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [4, 2, 2], "{date}");
        assert!(parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())), "{date}");
    }
}

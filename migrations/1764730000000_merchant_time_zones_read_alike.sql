-- Up Migration

-- Merchants' time zones stored before both sides had to read them alike (src/modules/merchants/
-- time-zones.ts): Node's Intl accepted names this PostgreSQL does not know (the report answered 500),
-- offsets that PostgreSQL reads as POSIX with the opposite sign, and abbreviations that AT TIME ZONE
-- reads as a fixed offset without summer time. Each becomes the zone the merchant's receipts were
-- already drawn in (Intl's reading), so the report's "today" moves to match the receipts. Only the
-- SystemV/*DT names differ: Intl kept their pre-2007 US rules; they become today's US zones.
-- Written for a merchants table of thousands of rows: the tz directory is listed once.
CREATE TEMPORARY TABLE known_time_zones ON COMMIT DROP AS SELECT name FROM pg_timezone_names;

UPDATE merchants m SET timezone = legacy.zone, updated_at = now()
FROM (VALUES
  ('US/Pacific-New', 'America/Los_Angeles'), ('Canada/East-Saskatchewan', 'America/Regina'),
  ('SystemV/AST4', 'Etc/GMT+4'), ('SystemV/AST4ADT', 'America/Halifax'), ('SystemV/CST6', 'Etc/GMT+6'),
  ('SystemV/CST6CDT', 'America/Chicago'), ('SystemV/EST5', 'Etc/GMT+5'), ('SystemV/EST5EDT', 'America/New_York'),
  ('SystemV/HST10', 'Etc/GMT+10'), ('SystemV/MST7', 'Etc/GMT+7'), ('SystemV/MST7MDT', 'America/Denver'),
  ('SystemV/PST8', 'Etc/GMT+8'), ('SystemV/PST8PDT', 'America/Los_Angeles'), ('SystemV/YST9', 'Etc/GMT+9'),
  ('SystemV/YST9YDT', 'America/Anchorage'),
  ('ACT', 'Australia/Darwin'), ('AET', 'Australia/Sydney'), ('AGT', 'America/Argentina/Buenos_Aires'),
  ('ART', 'Africa/Cairo'), ('AST', 'America/Anchorage'), ('BET', 'America/Sao_Paulo'), ('BST', 'Asia/Dhaka'),
  ('CAT', 'Africa/Maputo'), ('CNT', 'America/St_Johns'), ('CST', 'America/Chicago'), ('CTT', 'Asia/Shanghai'),
  ('EAT', 'Africa/Nairobi'), ('ECT', 'Europe/Paris'), ('IET', 'America/Indiana/Indianapolis'),
  ('IST', 'Asia/Kolkata'), ('JST', 'Asia/Tokyo'), ('MIT', 'Pacific/Apia'), ('NET', 'Asia/Yerevan'),
  ('NST', 'Pacific/Auckland'), ('PLT', 'Asia/Karachi'), ('PNT', 'America/Phoenix'), ('PRT', 'America/Puerto_Rico'),
  ('PST', 'America/Los_Angeles'), ('SST', 'Pacific/Guadalcanal'), ('VST', 'Asia/Ho_Chi_Minh'),
  ('CET', 'Europe/Brussels'), ('EET', 'Europe/Athens'), ('MET', 'Europe/Brussels'), ('WET', 'Europe/Lisbon')
) AS legacy (name, zone)
WHERE lower(m.timezone) = lower(legacy.name);

-- Whole-hour offsets keep their offset: +01:00 (also +0100, +01) is Etc/GMT-1, whose sign is POSIX's
-- (Etc/GMT-14 to Etc/GMT+12 exist).
UPDATE merchants SET timezone = CASE
    WHEN offset_hours = 0 THEN 'UTC'
    ELSE 'Etc/GMT' || CASE WHEN offset_hours > 0 THEN '-' ELSE '+' END || abs(offset_hours)
  END,
  updated_at = now()
FROM (
  SELECT id AS offset_id,
    (CASE WHEN substr(timezone, 1, 1) = '-' THEN -1 ELSE 1 END) * substr(timezone, 2, 2)::integer AS offset_hours
  FROM merchants WHERE timezone ~ '^[+-][0-9]{2}(:?00)?$'
) AS offsets
WHERE id = offset_id AND offset_hours BETWEEN -12 AND 14;

-- Names this PostgreSQL knows in another case (Intl and AT TIME ZONE ignore case) take its spelling.
UPDATE merchants m SET timezone = known.name, updated_at = now()
FROM known_time_zones known
WHERE lower(known.name) = lower(m.timezone) AND known.name <> m.timezone
  AND NOT EXISTS (SELECT 1 FROM known_time_zones exact WHERE exact.name = m.timezone);

-- What is left unknown (an offset with minutes, say) has no zone to keep: the platform's default.
UPDATE merchants SET timezone = 'Africa/Harare', updated_at = now()
WHERE timezone NOT IN (SELECT name FROM known_time_zones);

-- A placeholder that keeps the numbers without gaps on the seats branch: version 09 is
-- another branch's migration, which replaces this file when the branches are merged.

SELECT 1;

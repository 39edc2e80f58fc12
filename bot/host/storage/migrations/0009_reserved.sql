-- Version 9: reserved for another branch's migration (this branch takes number 10); at
-- the merge this file gives way to that branch's 0009 and nothing else changes.
SELECT 1;

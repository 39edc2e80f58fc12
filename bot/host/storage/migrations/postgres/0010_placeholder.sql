-- Placeholder: migration number 0010 belongs to another branch of the community layer.
-- It only keeps the numbers without gaps on this branch; delete it at merge.
SELECT 1;

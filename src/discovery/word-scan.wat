;; The search index's word scanner (word-table.ts): splits ASCII text into words by words.ts
;; `splitWords`' rules (a word is a run of letters and digits, cut at `aB`, `AB|Cd` and `2|Cd`) and
;; gives each word an id from a hash table of the words met so far, compared byte by byte. Written
;; by hand and small: V8 compiles WebAssembly with Liftoff at once, where the same loop in
;; JavaScript runs slowly until TurboFan has compiled it, at a cost of its own. The bytes shipped
;; are in word-scan.ts; test/discovery/word-table.test.ts assembles this text and compares.
;;
;; Memory is made and laid out by word-table.ts (`layout`) and never grown (growing a memory
;; detaches its buffer, and V8 then throws away the optimised code of every function that reads a
;; typed array: word-table.ts makes a larger memory and another instance instead): the text
;; (bytes), the ids of its words (i32), the table (i32 per slot: word id + 1, 0 empty; a power of
;; two long), a record per word (i32 hash, where its bytes begin in the pool, its length, where it
;; began in the text it was first met in) and the pool of the words' bytes. word-table.ts makes
;; room before each call.
(module
  (import "word-table" "memory" (memory 1))
  (global $text (mut i32) (i32.const 0))
  (global $ids (mut i32) (i32.const 0))
  (global $table (mut i32) (i32.const 0))
  (global $mask (mut i32) (i32.const 0))
  (global $records (mut i32) (i32.const 0))
  (global $pool (mut i32) (i32.const 0))
  (global $poolUsed (mut i32) (i32.const 0))
  (global $count (mut i32) (i32.const 0))

  ;; The regions' places, and how many words and bytes of words a previous memory held (copied here).
  (func (export "layout") (param $text i32) (param $ids i32) (param $records i32) (param $pool i32) (param $count i32) (param $poolUsed i32)
    (global.set $count (local.get $count))
    (global.set $poolUsed (local.get $poolUsed))
    (global.set $text (local.get $text))
    (global.set $ids (local.get $ids))
    (global.set $records (local.get $records))
    (global.set $pool (local.get $pool)))

  ;; How many words have ids, and how many bytes the pool holds.
  (func (export "count") (result i32) (global.get $count))
  (func (export "poolUsed") (result i32) (global.get $poolUsed))

  ;; An id for a word not kept here (not ASCII): a record of length 0, which no word matches.
  (func (export "take") (result i32)
    (local $record i32)
    (local.set $record (i32.add (global.get $records) (i32.shl (global.get $count) (i32.const 4))))
    (i32.store (local.get $record) (i32.const 0))
    (i32.store offset=4 (local.get $record) (global.get $poolUsed))
    (i32.store offset=8 (local.get $record) (i32.const 0))
    (i32.store offset=12 (local.get $record) (i32.const 0))
    (global.set $count (i32.add (global.get $count) (i32.const 1)))
    (i32.sub (global.get $count) (i32.const 1)))

  ;; The table moved to `table` (zeroed, `mask` + 1 slots): every word put in again by its hash.
  (func (export "rehash") (param $table i32) (param $mask i32)
    (local $id i32) (local $record i32) (local $slot i32)
    (global.set $table (local.get $table))
    (global.set $mask (local.get $mask))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $id) (global.get $count)))
        (local.set $record (i32.add (global.get $records) (i32.shl (local.get $id) (i32.const 4))))
        (if (i32.load offset=8 (local.get $record))
          (then
            (local.set $slot (i32.and (i32.load (local.get $record)) (local.get $mask)))
            (block $free
              (loop $probe
                (br_if $free (i32.eqz (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))))))
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                (br $probe)))
            (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))) (i32.add (local.get $id) (i32.const 1)))))
        (local.set $id (i32.add (local.get $id) (i32.const 1)))
        (br $each))))

  ;; 0: no part of a word; 1: a lower-case letter; 2: a capital; 3: a digit.
  (func $kind (param $c i32) (result i32)
    (if (result i32) (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 26))
      (then (i32.const 1))
      (else
        (if (result i32) (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26))
          (then (i32.const 2))
          (else (select (i32.const 3) (i32.const 0) (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))))))))

  ;; The words of the text's first `length` bytes: their ids written at $ids, in order; returns how many.
  (func (export "scan") (param $length i32) (result i32)
    (local $at i32) (local $c i32) (local $kind i32) (local $previous i32) (local $start i32)
    (local $hash i32) (local $words i32) (local $cut i32)
    (local.set $start (i32.const -1))
    (loop $each
      (local.set $c
        (if (result i32) (i32.lt_u (local.get $at) (local.get $length))
          (then (i32.load8_u (i32.add (global.get $text) (local.get $at))))
          (else (i32.const 32))))
      (local.set $kind (call $kind (local.get $c)))
      (local.set $cut (i32.eqz (local.get $kind)))
      ;; A capital inside a word: a cut after a lower-case letter, or before a lower-case letter after a capital or a digit.
      (if (i32.and (i32.eq (local.get $kind) (i32.const 2)) (i32.ge_s (local.get $start) (i32.const 0)))
        (then
          (if (i32.eq (local.get $previous) (i32.const 1))
            (then (local.set $cut (i32.const 1)))
            (else
              (if (i32.lt_u (i32.add (local.get $at) (i32.const 1)) (local.get $length))
                (then
                  (local.set $cut
                    (i32.eq
                      (call $kind (i32.load8_u offset=1 (i32.add (global.get $text) (local.get $at))))
                      (i32.const 1)))))))))
      (if (i32.and (local.get $cut) (i32.ge_s (local.get $start) (i32.const 0)))
        (then
          (i32.store
            (i32.add (global.get $ids) (i32.shl (local.get $words) (i32.const 2)))
            (call $find (local.get $start) (local.get $at) (local.get $hash)))
          (local.set $words (i32.add (local.get $words) (i32.const 1)))
          (local.set $start (i32.const -1))))
      (if (local.get $kind)
        (then
          (if (i32.lt_s (local.get $start) (i32.const 0))
            (then
              (local.set $start (local.get $at))
              (local.set $hash (i32.const 0))))
          (local.set $hash (i32.add (i32.mul (local.get $hash) (i32.const 31)) (local.get $c)))))
      (local.set $previous (local.get $kind))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (br_if $each (i32.le_u (local.get $at) (local.get $length))))
    (local.get $words))

  ;; The id of the word at text[start ..< end], whose hash is `hash`; a new word gets the next.
  (func $find (param $start i32) (param $end i32) (param $hash i32) (result i32)
    (local $length i32) (local $slot i32) (local $id i32) (local $record i32) (local $from i32) (local $k i32)
    (local.set $length (i32.sub (local.get $end) (local.get $start)))
    (local.set $slot (i32.and (local.get $hash) (global.get $mask)))
    (loop $probe
      (local.set $id (i32.sub (i32.load (i32.add (global.get $table) (i32.shl (local.get $slot) (i32.const 2)))) (i32.const 1)))
      (if (i32.lt_s (local.get $id) (i32.const 0))
        (then (return (call $add (local.get $start) (local.get $length) (local.get $hash) (local.get $slot)))))
      (local.set $record (i32.add (global.get $records) (i32.shl (local.get $id) (i32.const 4))))
      (if (i32.and
            (i32.eq (i32.load (local.get $record)) (local.get $hash))
            (i32.eq (i32.load offset=8 (local.get $record)) (local.get $length)))
        (then
          (local.set $from (i32.add (global.get $pool) (i32.load offset=4 (local.get $record))))
          (local.set $k (i32.const 0))
          (block $differ
            (loop $compare
              (if (i32.ge_u (local.get $k) (local.get $length)) (then (return (local.get $id))))
              (br_if $differ
                (i32.ne
                  (i32.load8_u (i32.add (local.get $from) (local.get $k)))
                  (i32.load8_u (i32.add (global.get $text) (i32.add (local.get $start) (local.get $k))))))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br $compare)))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
      (br $probe))
    (unreachable))

  ;; A new word into the empty `slot`: its record, its bytes into the pool.
  (func $add (param $start i32) (param $length i32) (param $hash i32) (param $slot i32) (result i32)
    (local $record i32) (local $k i32)
    (local.set $record (i32.add (global.get $records) (i32.shl (global.get $count) (i32.const 4))))
    (i32.store (local.get $record) (local.get $hash))
    (i32.store offset=4 (local.get $record) (global.get $poolUsed))
    (i32.store offset=8 (local.get $record) (local.get $length))
    (i32.store offset=12 (local.get $record) (local.get $start))
    (block $copied
      (loop $copy
        (br_if $copied (i32.ge_u (local.get $k) (local.get $length)))
        (i32.store8
          (i32.add (global.get $pool) (i32.add (global.get $poolUsed) (local.get $k)))
          (i32.load8_u (i32.add (global.get $text) (i32.add (local.get $start) (local.get $k)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $copy)))
    (global.set $poolUsed (i32.add (global.get $poolUsed) (local.get $length)))
    (i32.store (i32.add (global.get $table) (i32.shl (local.get $slot) (i32.const 2))) (i32.add (global.get $count) (i32.const 1)))
    (global.set $count (i32.add (global.get $count) (i32.const 1)))
    (i32.sub (global.get $count) (i32.const 1))))

; ModuleID = "kernel"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal i32 @"kernel.body"(ptr captures(none) noalias %".1", ptr captures(none) %".2", ptr captures(none) %".3", ptr %".4", i64 %".5", i64 %".6")
{
entry:
  %".8" = getelementptr i64, ptr %".4", i64 2
  %".9" = load i64, ptr %".8", align 8
  %".10" = getelementptr i64, ptr %".4", i64 3
  %".11" = load i64, ptr %".10", align 8
  %".12" = getelementptr i64, ptr %".4", i64 4
  %".13" = load i64, ptr %".12", align 8
  %".14" = getelementptr i64, ptr %".4", i64 5
  %".15" = load i64, ptr %".14", align 8
  %".16" = getelementptr i64, ptr %".4", i64 6
  %".17" = load i64, ptr %".16", align 8
  %".18" = getelementptr i64, ptr %".4", i64 7
  %".19" = load i64, ptr %".18", align 8
  %".20" = icmp slt i64 %".5", %".6"
  br i1 %".20", label %"row.body", label %"row.exit"
row.body:
  %"row.i" = phi  i64 [%".5", %"entry"], [%".47", %"col.exit"]
  %"row.c0" = phi  i1 [0, %"entry"], [%".46", %"col.exit"]
  %".22" = mul i64 %"row.i", %".13"
  %".23" = add i64 0, %".22"
  %".24" = mul i64 %"row.i", %".17"
  %".25" = add i64 0, %".24"
  %".26" = getelementptr float, ptr %".2", i64 %".23"
  %".27" = getelementptr i64, ptr %".3", i64 %".25"
  %".28" = load i64, ptr %".27", align 8
  %".29" = mul i64 %"row.i", %".11"
  %".30" = icmp slt i64 0, %".11"
  br i1 %".30", label %"col.body", label %"col.exit"
row.exit:
  %".50" = phi  i1 [0, %"entry"], [%".46", %"col.exit"]
  %".51" = zext i1 %".50" to i32
  ret i32 %".51"
col.body:
  %"col.i" = phi  i64 [0, %"row.body"], [%".41", %"col.body"]
  %"col.c0" = phi  i1 [0, %"row.body"], [%".39", %"col.body"]
  %"col.c1" = phi  i1 [0, %"row.body"], [%".40", %"col.body"]
  %".32" = add i64 %".29", %"col.i"
  %".33" = getelementptr float, ptr %".26", i64 %"col.i"
  %".34" = load float, ptr %".33", align 4
  %".35" = sitofp i64 %".28" to float
  %".36" = fsub float %".34", %".35"
  %".37" = getelementptr float, ptr %".1", i64 %".32"
  store float %".36", ptr %".37", align 4
  %".39" = or i1 %"col.c0", 0
  %".40" = or i1 %"col.c1", 0
  %".41" = add i64 %"col.i", 1
  %".42" = icmp slt i64 %".41", %".11"
  br i1 %".42", label %"col.body", label %"col.exit"
col.exit:
  %".44" = phi  i1 [0, %"row.body"], [%".39", %"col.body"]
  %".45" = phi  i1 [0, %"row.body"], [%".40", %"col.body"]
  %".46" = or i1 %"row.c0", %".45"
  %".47" = add i64 %"row.i", 1
  %".48" = icmp slt i64 %".47", %".6"
  br i1 %".48", label %"row.body", label %"row.exit"
}

define i32 @"kernel"(ptr %".1", ptr %".2", ptr %".3", ptr %".4", i64 %".5", i64 %".6")
{
entry:
  %".8" = getelementptr i8, ptr %".1", i64 16
  %".9" = load ptr, ptr %".8", align 8
  %".10" = getelementptr i8, ptr %".2", i64 16
  %".11" = load ptr, ptr %".10", align 8
  %".12" = getelementptr i8, ptr %".3", i64 16
  %".13" = load ptr, ptr %".12", align 8
  %".14" = call i32 @"kernel.body"(ptr %".13", ptr %".9", ptr %".11", ptr %".4", i64 %".5", i64 %".6")
  ret i32 %".14"
}

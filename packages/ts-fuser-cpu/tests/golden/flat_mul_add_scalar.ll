; ModuleID = "kernel"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal i32 @"kernel.body"(ptr captures(none) noalias %".1", ptr captures(none) %".2", ptr captures(none) %".3", double %".4", ptr %".5", i64 %".6", i64 %".7")
{
entry:
  %".61" = alloca float, i32 16
  %".48" = alloca float, i32 16
  %".35" = alloca float, i32 16
  %".9" = sub i64 %".7", %".6"
  %".10" = udiv i64 %".9", 16
  %".11" = mul i64 %".10", 16
  %".12" = add i64 %".6", %".11"
  %".13" = icmp slt i64 %".6", %".12"
  br i1 %".13", label %"flat.body", label %"flat.exit"
flat.body:
  %"flat.i" = phi  i64 [%".6", %"entry"], [%".27", %"flat.body"]
  %"flat.c0" = phi  i1 [0, %"entry"], [%".25", %"flat.body"]
  %"flat.c1" = phi  i1 [0, %"entry"], [%".26", %"flat.body"]
  %".15" = getelementptr float, ptr %".2", i64 %"flat.i"
  %".16" = load float, ptr %".15", align 4
  %".17" = fmul float %".16", 0x3fe0000000000000
  %".18" = getelementptr float, ptr %".3", i64 %"flat.i"
  %".19" = load float, ptr %".18", align 4
  %".20" = fadd float %".17", %".19"
  %".21" = fptrunc double %".4" to float
  %".22" = fmul float %".20", %".21"
  %".23" = getelementptr float, ptr %".1", i64 %"flat.i"
  store float %".22", ptr %".23", align 4
  %".25" = or i1 %"flat.c0", 0
  %".26" = or i1 %"flat.c1", 0
  %".27" = add i64 %"flat.i", 1
  %".28" = icmp slt i64 %".27", %".12"
  br i1 %".28", label %"flat.body", label %"flat.exit"
flat.exit:
  %".30" = phi  i1 [0, %"entry"], [%".25", %"flat.body"]
  %".31" = phi  i1 [0, %"entry"], [%".26", %"flat.body"]
  %".32" = icmp slt i64 %".12", %".7"
  br i1 %".32", label %"tail", label %"tail.done"
tail:
  %".34" = sub i64 %".7", 1
  %".36" = icmp slt i64 0, 16
  br i1 %".36", label %"fill.body", label %"fill.exit"
tail.done:
  %".92" = phi  i1 [0, %"flat.exit"], [%".80", %"copy.exit"]
  %".93" = or i1 %".31", %".92"
  %".94" = zext i1 %".93" to i32
  ret i32 %".94"
fill.body:
  %"fill.i" = phi  i64 [0, %"tail"], [%".45", %"fill.body"]
  %".38" = add i64 %".12", %"fill.i"
  %".39" = icmp slt i64 %".38", %".7"
  %".40" = select  i1 %".39", i64 %".38", i64 %".34"
  %".41" = getelementptr float, ptr %".2", i64 %".40"
  %".42" = load float, ptr %".41"
  %".43" = getelementptr float, float* %".35", i64 %"fill.i"
  store float %".42", float* %".43"
  %".45" = add i64 %"fill.i", 1
  %".46" = icmp slt i64 %".45", 16
  br i1 %".46", label %"fill.body", label %"fill.exit"
fill.exit:
  %".49" = icmp slt i64 0, 16
  br i1 %".49", label %"fill.body.1", label %"fill.exit.1"
fill.body.1:
  %"fill.i.1" = phi  i64 [0, %"fill.exit"], [%".58", %"fill.body.1"]
  %".51" = add i64 %".12", %"fill.i.1"
  %".52" = icmp slt i64 %".51", %".7"
  %".53" = select  i1 %".52", i64 %".51", i64 %".34"
  %".54" = getelementptr float, ptr %".3", i64 %".53"
  %".55" = load float, ptr %".54"
  %".56" = getelementptr float, float* %".48", i64 %"fill.i.1"
  store float %".55", float* %".56"
  %".58" = add i64 %"fill.i.1", 1
  %".59" = icmp slt i64 %".58", 16
  br i1 %".59", label %"fill.body.1", label %"fill.exit.1"
fill.exit.1:
  %".62" = icmp slt i64 0, 16
  br i1 %".62", label %"tail.body", label %"tail.exit"
tail.body:
  %"tail.i" = phi  i64 [0, %"fill.exit.1"], [%".76", %"tail.body"]
  %"tail.c0" = phi  i1 [0, %"fill.exit.1"], [%".74", %"tail.body"]
  %"tail.c1" = phi  i1 [0, %"fill.exit.1"], [%".75", %"tail.body"]
  %".64" = getelementptr float, float* %".35", i64 %"tail.i"
  %".65" = load float, float* %".64", align 4
  %".66" = fmul float %".65", 0x3fe0000000000000
  %".67" = getelementptr float, float* %".48", i64 %"tail.i"
  %".68" = load float, float* %".67", align 4
  %".69" = fadd float %".66", %".68"
  %".70" = fptrunc double %".4" to float
  %".71" = fmul float %".69", %".70"
  %".72" = getelementptr float, float* %".61", i64 %"tail.i"
  store float %".71", float* %".72"
  %".74" = or i1 %"tail.c0", 0
  %".75" = or i1 %"tail.c1", 0
  %".76" = add i64 %"tail.i", 1
  %".77" = icmp slt i64 %".76", 16
  br i1 %".77", label %"tail.body", label %"tail.exit"
tail.exit:
  %".79" = phi  i1 [0, %"fill.exit.1"], [%".74", %"tail.body"]
  %".80" = phi  i1 [0, %"fill.exit.1"], [%".75", %"tail.body"]
  %".81" = icmp slt i64 %".12", %".7"
  br i1 %".81", label %"copy.body", label %"copy.exit"
copy.body:
  %"copy.i" = phi  i64 [%".12", %"tail.exit"], [%".88", %"copy.body"]
  %".83" = sub i64 %"copy.i", %".12"
  %".84" = getelementptr float, float* %".61", i64 %".83"
  %".85" = load float, float* %".84"
  %".86" = getelementptr float, ptr %".1", i64 %"copy.i"
  store float %".85", ptr %".86"
  %".88" = add i64 %"copy.i", 1
  %".89" = icmp slt i64 %".88", %".7"
  br i1 %".89", label %"copy.body", label %"copy.exit"
copy.exit:
  br label %"tail.done"
}

define i32 @"kernel"(ptr %".1", ptr %".2", double %".3", ptr %".4", ptr %".5", i64 %".6", i64 %".7")
{
entry:
  %".9" = getelementptr i8, ptr %".1", i64 16
  %".10" = load ptr, ptr %".9", align 8
  %".11" = getelementptr i8, ptr %".2", i64 16
  %".12" = load ptr, ptr %".11", align 8
  %".13" = getelementptr i8, ptr %".4", i64 16
  %".14" = load ptr, ptr %".13", align 8
  %".15" = call i32 @"kernel.body"(ptr %".14", ptr %".10", ptr %".12", double %".3", ptr %".5", i64 %".6", i64 %".7")
  ret i32 %".15"
}

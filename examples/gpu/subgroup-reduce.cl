// OpenCL sub-group reduction: each sub-group adds its work-items' values
// with sub_group_reduce_add, and its first work-item writes the sum.
// Every OpenCL function is convergent, so the sub-group built-ins are
// convergent operations.

kernel void subgroup_reduce(global const int *in, global int *out) {
  int v = in[get_global_id(0)];
  int sum = sub_group_reduce_add(v);
  if (get_sub_group_local_id() == 0)
    out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = sum;
}
